(call_expression function: (_) @call.name) @call
