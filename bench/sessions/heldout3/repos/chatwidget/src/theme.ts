export interface Theme {
  accent: string;
  background: string;
  text: string;
  fontFamily: string;
  fontSize: number;
  radius: number;
}

export const DEFAULT_THEME: Theme = {
  accent: "#3b5bdb",
  background: "#ffffff",
  text: "#1f2933",
  fontFamily: "system-ui, sans-serif",
  fontSize: 14,
  radius: 12,
};

export function applyTheme(root: HTMLElement, theme: Partial<Theme> = {}): Theme {
  const t = { ...DEFAULT_THEME, ...theme };
  root.style.setProperty("--cw-accent", t.accent);
  root.style.setProperty("--cw-bg", t.background);
  root.style.setProperty("--cw-text", t.text);
  root.style.setProperty("--cw-font", t.fontFamily);
  root.style.setProperty("--cw-font-size", `${t.fontSize}px`);
  root.style.setProperty("--cw-radius", `${t.radius}px`);
  return t;
}

export function inputStyles(theme: Theme): Partial<CSSStyleDeclaration> {
  return {
    fontSize: `${theme.fontSize}px`,
    fontFamily: theme.fontFamily,
    borderRadius: `${theme.radius / 2}px`,
  };
}
