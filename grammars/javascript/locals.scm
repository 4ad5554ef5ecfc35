; inherits: ecma
(formal_parameters (identifier) @local)
(formal_parameters (assignment_pattern left: (identifier) @local))
(formal_parameters (rest_pattern (identifier) @local))
