(import_statement source: (string (string_fragment) @import.module)) @import
((call_expression
   function: (identifier) @_require
   arguments: (arguments . (string (string_fragment) @import.module)))
 (#eq? @_require "require")) @import
