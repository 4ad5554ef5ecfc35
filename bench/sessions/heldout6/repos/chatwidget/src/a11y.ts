// Accessibility helpers: a live region for screen readers and focus handling for the panel.

export class Announcer {
  readonly region: HTMLElement;

  constructor(root: HTMLElement) {
    this.region = document.createElement("div");
    this.region.className = "cw-sr-only";
    this.region.setAttribute("role", "log");
    root.appendChild(this.region);
  }

  announce(text: string): void {
    this.region.textContent = text;
  }
}

const FOCUSABLE = 'a[href], button:not([disabled]), textarea, input, [tabindex]:not([tabindex="-1"])';

export function trapFocus(panel: HTMLElement): () => void {
  const onKey = (ev: KeyboardEvent) => {
    if (ev.key !== "Tab") return;
    const items = Array.from(panel.querySelectorAll<HTMLElement>(FOCUSABLE));
    if (items.length === 0) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (ev.shiftKey && document.activeElement === first) {
      last.focus();
      ev.preventDefault();
    } else if (!ev.shiftKey && document.activeElement === last) {
      first.focus();
      ev.preventDefault();
    }
  };
  panel.addEventListener("keydown", onKey);
  return () => panel.removeEventListener("keydown", onKey);
}

export function labelLauncher(button: HTMLElement, unread: number): void {
  button.setAttribute("aria-label", unread > 0 ? `Open support chat, ${unread} unread` : "Open support chat");
}
