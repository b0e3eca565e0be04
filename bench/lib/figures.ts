import type { Figure } from "../types.ts";
import { round } from "../stats.ts";

/** A figure where more is better (rates): ratio = value / baseline. */
export function higherIsBetter(f: Omit<Figure, "ratio" | "met"> & { minRatio?: number }): Figure {
  const { minRatio, ...rest } = f;
  const ratio = f.baseline && f.baseline.value > 0 ? round(f.value / f.baseline.value, 3) : undefined;
  return { ...rest, ratio, ...(minRatio !== undefined && ratio !== undefined ? { met: ratio >= minRatio } : {}) };
}

/** A figure where less is better (times): ratio = baseline / value, so > 1 still means ahead. */
export function lowerIsBetter(f: Omit<Figure, "ratio">): Figure {
  const ratio = f.baseline && f.value > 0 ? round(f.baseline.value / f.value, 3) : undefined;
  return { ...f, ratio };
}
