(class_declaration name: (_) @name) @definition.class
(interface_declaration name: (_) @name) @definition.class
(enum_declaration name: (_) @name) @definition.class
(record_declaration name: (_) @name) @definition.class
(annotation_type_declaration name: (_) @name) @definition.class
(method_declaration name: (_) @name parameters: (_) @params) @definition.method
(constructor_declaration name: (_) @name parameters: (_) @params) @definition.method
(compact_constructor_declaration name: (_) @name) @definition.method
