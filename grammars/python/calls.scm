(call function: (_) @call.name) @call
