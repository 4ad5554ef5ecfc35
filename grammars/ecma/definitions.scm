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

; a.b = a.c = function …: the first target names it (express: res.set = res.header = function header …)
(expression_statement
  (assignment_expression
    left: [(identifier) (member_expression) (subscript_expression)] @name
    right: (assignment_expression
      right: [(arrow_function) (function_expression) (generator_function)]))) @definition.function

; At the top of a module (inside a function, its lines are already that function's): a variable
; or export whose value holds a function before any brace — const f = memoize(function …),
; var g = (this && this.g) || function …, cond ? a : function …, var proto = module.exports =
; function …, exports.X = make("X", (inst) => …)
(program
  [(lexical_declaration . (variable_declarator name: (identifier) @name value: (_) @_value) .)
   (variable_declaration . (variable_declarator name: (identifier) @name value: (_) @_value) .)
   (expression_statement
     (assignment_expression left: [(identifier) (member_expression)] @name right: (call_expression) @_value))]
  @definition.function
  (#match? @_value "^[^{]*((^|[^.\\w$])function\\b|=>)"))
(program
  (export_statement
    (lexical_declaration . (variable_declarator name: (identifier) @name value: (_) @_value) .) @definition.function)
  (#match? @_value "^[^{]*((^|[^.\\w$])function\\b|=>)"))

; export default function () {…}, export default (x) => …: named "default"
(export_statement "default" @name [(function_expression) (arrow_function)] @definition.function)

; a named function expression handed to a call: defineGetter(req, 'xhr', function xhr() {…})
(program
  (expression_statement
    (call_expression
      arguments: (arguments (function_expression name: (identifier) @name parameters: (_) @params) @definition.function))))

; a callback registered under a string: test("parses dates", () => …), app.get("/users", auth, (req, res) => …),
; defineGetter(req, 'fresh', function () …)
(program
  (expression_statement
    (call_expression
      arguments: (arguments [(string) (template_string)] @name [(arrow_function) (function_expression)] @definition.function))))

; object literal methods: obj = { m() {}, k: function () {} }
(pair
  key: (_) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.method

; values whose nested definitions are named under them
(variable_declarator name: (identifier) @name value: (object)) @scope
(assignment_expression left: (_) @name right: (object)) @scope
(pair key: (_) @name value: (object)) @scope
