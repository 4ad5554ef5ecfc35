; Import bindings (the captures are described in ../python/bindings.scm).
;   @package    import "net/http" binds http, import h "net/http" binds h (@alias), to the package
(import_spec name: (package_identifier) @alias path: (interpreted_string_literal (interpreted_string_literal_content) @package))
(import_spec !name path: (interpreted_string_literal (interpreted_string_literal_content) @package))
