export { createForm, Form, type FormOptions } from "./form";
export { field, compile, FieldBuilder, type Schema, type FieldSpec } from "./schema";
export { required, minLength, maxLength, pattern, email, range, type Rule, type RuleResult } from "./rules";
export { registerCatalog, setLocale, getLocale, translate, type Catalog } from "./messages";
export { AsyncRunner, type AsyncRule } from "./async";
export { FieldState } from "./state";
export { debounce } from "./debounce";
