(function_item name: (_) @name parameters: (_) @params) @definition.function
(function_signature_item name: (_) @name parameters: (_) @params) @definition.function
(struct_item name: (_) @name) @definition.class
(enum_item name: (_) @name) @definition.class
(union_item name: (_) @name) @definition.class
(trait_item name: (_) @name) @definition.class
(mod_item name: (_) @name body: (_)) @definition.class

; impl blocks are named "impl Type" / "impl Trait for Type"; their methods Type.m / <Type as Trait>.m
(impl_item trait: (_) @impl.trait type: (_) @impl.type) @definition.impl
(impl_item !trait type: (_) @impl.type) @definition.impl
