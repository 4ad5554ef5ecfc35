(block (_) @statement)
