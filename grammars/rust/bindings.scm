; Use bindings (the captures are described in ../python/bindings.scm).
(use_declaration argument: (identifier) @module)
(use_declaration argument: (scoped_identifier path: (_) @from name: (identifier) @name))
(use_declaration argument: (use_as_clause path: (scoped_identifier path: (_) @from name: (identifier) @name) alias: (identifier) @alias))
(use_declaration argument: (use_as_clause path: (identifier) @module alias: (identifier) @alias))
(scoped_use_list path: (_) @from list: (use_list (identifier) @name))
(scoped_use_list path: (_) @from list: (use_list (scoped_identifier) @name))
(scoped_use_list path: (_) @from list: (use_list (use_as_clause path: (_) @name alias: (identifier) @alias)))
