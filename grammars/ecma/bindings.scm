; Import bindings (the captures are described in ../python/bindings.scm).
(import_statement (import_clause (identifier) @default) source: (string (string_fragment) @from))
(import_statement (import_clause (named_imports (import_specifier name: (_) @name !alias))) source: (string (string_fragment) @from))
(import_statement (import_clause (named_imports (import_specifier name: (_) @name alias: (_) @alias))) source: (string (string_fragment) @from))
(import_statement (import_clause (namespace_import (identifier) @alias)) source: (string (string_fragment) @from))
(variable_declarator
  name: (identifier) @alias
  value: (call_expression function: (identifier) @_r arguments: (arguments . (string (string_fragment) @from)))
  (#eq? @_r "require"))
(variable_declarator
  name: (object_pattern (shorthand_property_identifier_pattern) @name)
  value: (call_expression function: (identifier) @_r arguments: (arguments . (string (string_fragment) @from)))
  (#eq? @_r "require"))
(variable_declarator
  name: (object_pattern (pair_pattern key: (_) @name value: (identifier) @alias))
  value: (call_expression function: (identifier) @_r arguments: (arguments . (string (string_fragment) @from)))
  (#eq? @_r "require"))
(export_statement (export_clause (export_specifier name: (_) @export.name !alias)) source: (string (string_fragment) @from))
(export_statement (export_clause (export_specifier name: (_) @export.name alias: (_) @export.alias)) source: (string (string_fragment) @from))
(export_statement "*" source: (string (string_fragment) @from) @export.star)
