(import_statement name: [(dotted_name) @import.module (aliased_import name: (dotted_name) @import.module)]) @import
; from a.b import c: the module a.b, and a.b.c for each name imported
(import_from_statement
  module_name: (dotted_name) @import.module
  name: [(dotted_name) @import.name (aliased_import name: (dotted_name) @import.name)]) @import
(import_from_statement module_name: (dotted_name) @import.module (wildcard_import)) @import
