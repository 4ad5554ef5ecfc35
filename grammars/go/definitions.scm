(function_declaration name: (identifier) @name parameters: (_) @params) @definition.function

; methods are named Receiver.Name
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [(type_identifier) @receiver
             (generic_type type: (type_identifier) @receiver)
             (pointer_type (type_identifier) @receiver)
             (pointer_type (generic_type type: (type_identifier) @receiver))]))
  name: (field_identifier) @name
  parameters: (_) @params) @definition.method

(type_spec name: (type_identifier) @name) @definition.class
(type_alias name: (type_identifier) @name) @definition.class
