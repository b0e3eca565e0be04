import { useEffect, useState } from "preact/hooks";

export type Theme = "light" | "dark";
const KEY = "crumbs.theme";
const query = () => matchMedia("(prefers-color-scheme: dark)");

/**
 * The system's prefers-color-scheme, unless the user toggled: only an explicit choice is
 * stored (and set as data-theme), so an untouched dashboard keeps following the system.
 */
export function useTheme(): [Theme, () => void] {
  const [saved, setSaved] = useState<Theme | null>(() => {
    const s = localStorage.getItem(KEY);
    return s === "light" || s === "dark" ? s : null;
  });
  const [system, setSystem] = useState<Theme>(() => (query().matches ? "dark" : "light"));
  useEffect(() => {
    const mq = query();
    const on = () => setSystem(mq.matches ? "dark" : "light");
    mq.addEventListener("change", on);
    return () => mq.removeEventListener("change", on);
  }, []);
  useEffect(() => {
    if (saved) document.documentElement.dataset.theme = saved;
    else delete document.documentElement.dataset.theme;
  }, [saved]);
  const theme = saved ?? system;
  const toggle = () => {
    const next = theme === "dark" ? "light" : "dark";
    localStorage.setItem(KEY, next);
    setSaved(next);
  };
  return [theme, toggle];
}
