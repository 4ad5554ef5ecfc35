(import_declaration [(scoped_identifier) (identifier)] @import.module) @import
