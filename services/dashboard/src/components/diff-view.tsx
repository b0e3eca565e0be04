import { diffJson, type DiffEntry } from "../json-diff.ts";

const show = (v: unknown) => (v === undefined ? "" : JSON.stringify(v));

/** The leaf differences between two values, one row each, marked added / removed / changed. */
export function DiffView({ before, after, label }: { before: unknown; after: unknown; label: string }) {
  const entries: DiffEntry[] = diffJson(before, after);
  if (!entries.length) return <p class="muted">{label}: no differences.</p>;
  return (
    <table class="diff" aria-label={label}>
      <thead>
        <tr>
          <th scope="col">Path</th>
          <th scope="col">Before</th>
          <th scope="col">After</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((e) => (
          <tr key={e.path} class={`d-${e.kind}`}>
            <td class="mono">
              <span class="d-mark" aria-label={e.kind}>
                {e.kind === "added" ? "+" : e.kind === "removed" ? "−" : "~"}
              </span>{" "}
              {e.path}
            </td>
            <td class="mono del">{show(e.before)}</td>
            <td class="mono ins">{show(e.after)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
