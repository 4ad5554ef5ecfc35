; What a file's imports bind, for resolving calls to definitions elsewhere in the workspace.
;   @module            import a.b            binds a (or @alias) to the module a.b
;   @from @name        from m import n       binds n (or @alias) to n in m (or the module m.n)
;   @from @alias       import * as ns        binds the alias to the module m
;   @from @default     import d from 'm'     binds d to the default export of m
;   @from @star        from m import *       (names not tracked)
;   @export.*          re-exports: export {a as b} from 'm', export * from 'm'
(import_statement name: (dotted_name) @module)
(import_statement name: (aliased_import name: (dotted_name) @module alias: (identifier) @alias))
(import_from_statement module_name: (_) @from name: (dotted_name) @name)
(import_from_statement module_name: (_) @from name: (aliased_import name: (dotted_name) @name alias: (identifier) @alias))
(import_from_statement module_name: (_) @from (wildcard_import) @star)
