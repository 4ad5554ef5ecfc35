(use_declaration argument: (_) @import.module) @import
(extern_crate_declaration name: (identifier) @import.module) @import
