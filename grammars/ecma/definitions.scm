; Shared by JavaScript, TypeScript and TSX (not a language of its own).
(function_declaration name: (identifier) @name parameters: (_) @params) @definition.function
(generator_function_declaration name: (identifier) @name parameters: (_) @params) @definition.function
(class_declaration name: (_) @name) @definition.class
(method_definition name: (_) @name parameters: (_) @params) @definition.method

; single-variable declarations holding a function or a class
(lexical_declaration .
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)]) .) @definition.function
(variable_declaration .
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)]) .) @definition.function
(lexical_declaration . (variable_declarator name: (identifier) @name value: (class)) .) @definition.class
(variable_declaration . (variable_declarator name: (identifier) @name value: (class)) .) @definition.class

; module.exports = function f / class X is the symbol f / X (listed first: it wins)
(expression_statement
  (assignment_expression
    left: (member_expression) @_target
    right: [(function_expression name: (identifier) @name)
            (generator_function name: (identifier) @name)])
  (#eq? @_target "module.exports")) @definition.function
(expression_statement
  (assignment_expression
    left: (member_expression) @_target
    right: (class name: (_) @name))
  (#eq? @_target "module.exports")) @definition.class

; a.b = function …, a.prototype.m = () => …
(expression_statement
  (assignment_expression
    left: [(identifier) (member_expression) (subscript_expression)] @name
    right: [(arrow_function) (function_expression) (generator_function)])) @definition.function
(expression_statement
  (assignment_expression
    left: [(identifier) (member_expression) (subscript_expression)] @name
    right: (class))) @definition.class

; object literal methods: obj = { m() {}, k: function () {} }
(pair
  key: (_) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.method

; values whose nested definitions are named under them
(variable_declarator name: (identifier) @name value: (object)) @scope
(assignment_expression left: (_) @name right: (object)) @scope
(pair key: (_) @name value: (object)) @scope
