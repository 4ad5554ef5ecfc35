; inherits: ecma
(field_definition
  property: (_) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.method
