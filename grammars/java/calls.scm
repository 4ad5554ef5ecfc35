; a method call is named object.method (the object as written); a constructor call by its type
(method_invocation object: (_)? @call.object name: (identifier) @call.method) @call
(object_creation_expression type: (_) @call.name) @call
