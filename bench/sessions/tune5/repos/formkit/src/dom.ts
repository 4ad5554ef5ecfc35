import { debounce } from "./debounce.js";
import { FormValidator, type Schema } from "./validator.js";

export interface BindOptions {
  wait?: number;
  locale?: string;
}

function errorSlot(input: HTMLInputElement): HTMLElement {
  const id = `${input.name}-error`;
  let slot = input.form?.querySelector<HTMLElement>(`#${id}`) ?? null;
  if (!slot) {
    slot = document.createElement("div");
    slot.id = id;
    slot.className = "fk-error";
    input.insertAdjacentElement("afterend", slot);
  }
  return slot;
}

export function showError(input: HTMLInputElement, errors: string[]): void {
  const slot = errorSlot(input);
  slot.innerHTML = errors.join("<br>");
  input.setAttribute("aria-invalid", errors.length ? "true" : "false");
}

export function bindForm(form: HTMLFormElement, schema: Schema, opts: BindOptions = {}): FormValidator {
  const validator = new FormValidator(schema, opts.locale ?? "en");
  for (const name of Object.keys(schema)) {
    const input = form.elements.namedItem(name) as HTMLInputElement | null;
    if (!input) continue;
    const check = debounce(async () => showError(input, await validator.validateField(name, input.value)), opts.wait ?? 250);
    input.addEventListener("input", () => check());
  }
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const values = Object.fromEntries(new FormData(form).entries()) as Record<string, string>;
    if (await validator.validateAll(values)) form.submit();
  });
  return validator;
}
