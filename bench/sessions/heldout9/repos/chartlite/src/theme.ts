// Colours and type for every chart. Series get palette colours in order; everything else
// (axis lines, grid, muted text) comes from the named slots below.

export interface Theme {
  palette: string[];
  axis: string;
  grid: string;
  text: string;
  muted: string;
  background: string;
  fontFamily: string;
  fontSize: number;
}

export const lightTheme: Theme = {
  palette: ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7"],
  axis: "#555555",
  grid: "#e6e6e6",
  text: "#222222",
  muted: "#9a9a9a",
  background: "#ffffff",
  fontFamily: "system-ui, sans-serif",
  fontSize: 11,
};

export const darkTheme: Theme = {
  ...lightTheme,
  axis: "#bbbbbb",
  grid: "#333333",
  text: "#eeeeee",
  muted: "#777777",
  background: "#121212",
};

export function seriesColor(theme: Theme, index: number): string {
  return theme.palette[index % theme.palette.length];
}

export function withAlpha(hex: string, alpha: number): string {
  const n = parseInt(hex.slice(1), 16);
  const r = (n >> 16) & 255, g = (n >> 8) & 255, b = n & 255;
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}
