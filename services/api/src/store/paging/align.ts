/** Rows put back in the order of `keys` (an IN list comes back in any order), undefined where one is gone. */
export function alignTo<K, R>(keys: readonly K[], rows: readonly R[], keyOf: (row: R) => string, keyText: (key: K) => string): (R | undefined)[] {
  const byKey = new Map(rows.map((r) => [keyOf(r), r]));
  return keys.map((k) => byKey.get(keyText(k)));
}
