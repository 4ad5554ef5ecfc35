export * from "./rules.js";
export * from "./validator.js";
export { format, addLocale } from "./messages.js";
export { debounce } from "./debounce.js";
export { bindForm } from "./dom.js";
