(statement_block (_) @statement)
; a field pattern such as `body: (_)` matches only the first child: list siblings instead
(switch_case value: (_) (_) @statement)
(switch_default (_) @statement)
