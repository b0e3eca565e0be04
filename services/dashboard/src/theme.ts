export type Theme = "light" | "dark";
const KEY = "crumbs.theme";

/** A saved choice wins; otherwise the system's prefers-color-scheme. */
export function initialTheme(): Theme {
  const saved = localStorage.getItem(KEY);
  if (saved === "light" || saved === "dark") return saved;
  return matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

export function applyTheme(t: Theme): void {
  document.documentElement.dataset.theme = t;
}

/** Only an explicit toggle is remembered, so an untouched dashboard keeps following the system. */
export const saveTheme = (t: Theme) => localStorage.setItem(KEY, t);
