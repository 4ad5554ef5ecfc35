(call_expression function: (_) @call.name) @call
(macro_invocation macro: (_) @call.name) @call
