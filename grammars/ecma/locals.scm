; Names a function binds itself (declarations, loop and catch variables); parameters are
; per language (JavaScript lists them bare, TypeScript wraps them in required_parameter).
(arrow_function parameter: (identifier) @local)
(variable_declarator name: (identifier) @local)
(object_pattern (shorthand_property_identifier_pattern) @local)
(object_pattern (pair_pattern value: (identifier) @local))
(array_pattern (identifier) @local)
(for_in_statement left: (identifier) @local)
(catch_clause parameter: (identifier) @local)
