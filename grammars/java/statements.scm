(block (_) @statement)
(constructor_body (_) @statement)
(switch_block_statement_group (_) @statement)
