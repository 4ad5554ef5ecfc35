; A function decorated with @overload / @typing.overload is a stub, not a definition.
(decorated_definition
  (decorator [(identifier) @_d (attribute attribute: (identifier) @_d)])
  definition: (function_definition) @ignore
  (#eq? @_d "overload"))

(function_definition
  name: (identifier) @name
  parameters: (parameters) @params) @definition.function

(class_definition
  name: (identifier) @name) @definition.class
