; inherits: ecma
(required_parameter pattern: (identifier) @local)
(required_parameter pattern: (rest_pattern (identifier) @local))
(optional_parameter pattern: (identifier) @local)
