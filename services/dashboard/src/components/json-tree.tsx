import type { JSX } from "preact";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

function Leaf({ value }: { value: unknown }) {
  const cls = value === null ? "j-null" : `j-${typeof value}`;
  return <span class={cls}>{JSON.stringify(value)}</span>;
}

/**
 * A collapsible JSON tree on native <details>: keyboard (Tab, Enter/Space) and screen
 * readers work without extra code. The first levels start open.
 */
export function JsonTree({ value, name, depth = 0, open = 2 }: { value: unknown; name?: string; depth?: number; open?: number }): JSX.Element {
  const label = name !== undefined ? <span class="j-key">{name}: </span> : null;
  if (!isObject(value)) {
    return (
      <div class="j-row">
        {label}
        <Leaf value={value} />
      </div>
    );
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  const brackets = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  if (!entries.length) {
    return (
      <div class="j-row">
        {label}
        <span class="j-punct">{brackets.join("")}</span>
      </div>
    );
  }
  return (
    <details class="j-node" open={depth < open}>
      <summary>
        {label}
        <span class="j-punct">{brackets[0]}</span>
        <span class="j-count">{entries.length} {Array.isArray(value) ? "items" : "keys"}</span>
      </summary>
      <div class="j-children">
        {entries.map(([k, v]) => (
          <JsonTree key={k} value={v} name={k} depth={depth + 1} open={open} />
        ))}
      </div>
    </details>
  );
}
