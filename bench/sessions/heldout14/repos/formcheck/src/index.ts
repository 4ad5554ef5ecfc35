export type { FieldError, FieldSpec, Rule, RuleResult, RuleSet, Value } from "./types.js";
export { required, minLength, maxLength, pattern, email, sameAs, numberBetween } from "./rules.js";
export { validateField, validateForm } from "./validate.js";
export { formatMessage, useCatalog, en } from "./messages.js";
export { AsyncValidator } from "./async.js";
export { normalizeString, normalizeValue } from "./normalize.js";
