(statement_list (_) @statement)
