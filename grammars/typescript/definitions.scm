; inherits: ecma
; Signatures (function_signature, method_signature, abstract_method_signature) are
; declarations without a body: never definitions.
(abstract_class_declaration name: (_) @name) @definition.class
(interface_declaration name: (_) @name) @definition.class
(enum_declaration name: (_) @name) @definition.class
(type_alias_declaration name: (_) @name) @definition.class
(internal_module name: (_) @name) @definition.class
(public_field_definition
  name: (_) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.method
