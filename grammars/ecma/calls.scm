(call_expression function: (_) @call.name) @call
(new_expression constructor: (_) @call.name) @call
