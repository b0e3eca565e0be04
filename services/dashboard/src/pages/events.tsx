import type { BreadcrumbEvent } from "@crumbs/schemas";
import { useEffect, useRef, useState } from "preact/hooks";
import { followEvents, typedSelector } from "../api.ts";
import { ErrorBox, Tags, Time } from "../components/common.tsx";
import { href } from "../router.ts";
import { selectorError } from "../selector-input.ts";

/** Rows kept on screen; older ones drop off the bottom. */
const MAX_ROWS = 500;

export function EventsPage() {
  const [events, setEvents] = useState<BreadcrumbEvent[]>([]);
  const [paused, setPaused] = useState(false);
  const [held, setHeld] = useState(0);
  const [text, setText] = useState("");
  const [selector, setSelector] = useState("");
  const [applied, setApplied] = useState("");
  const [state, setState] = useState("connecting");
  const [error, setError] = useState<unknown>();
  const buffer = useRef<BreadcrumbEvent[]>([]);
  const pausedRef = useRef(paused);
  pausedRef.current = paused;

  useEffect(() => {
    const ctl = new AbortController();
    setError(undefined);
    setState("connecting");
    void followEvents(
      { selector: typedSelector(applied), signal: ctl.signal },
      (e) => {
        // Paused: keep receiving (nothing is lost) but hold the rows until resume.
        if (pausedRef.current) {
          buffer.current.push(e);
          setHeld(buffer.current.length);
        } else setEvents((list) => [e, ...list].slice(0, MAX_ROWS));
      },
      setState,
    ).catch((err: unknown) => {
      setError(err);
      setState("off");
    });
    return () => ctl.abort();
  }, [applied]);

  const resume = () => {
    const held = buffer.current.reverse();
    buffer.current = [];
    setHeld(0);
    setEvents((list) => [...held, ...list].slice(0, MAX_ROWS));
    setPaused(false);
  };
  const needle = text.trim().toLowerCase();
  const shown = needle
    ? events.filter((e) => `${e.type} ${e.schema_name} ${e.title} ${e.tags.join(" ")} ${e.id}`.toLowerCase().includes(needle))
    : events;
  const selErr = selectorError(selector);

  return (
    <div>
      <div class="panel filters">
        <label>
          Filter rows <input type="search" value={text} onInput={(e) => setText(e.currentTarget.value)} placeholder="type, schema, title, tag" />
        </label>
        <form
          class="inline"
          onSubmit={(e) => {
            e.preventDefault();
            if (!selErr) {
              setEvents([]);
              setApplied(selector.trim());
            }
          }}
        >
          <label>
            Stream selector (JSON) <input value={selector} onInput={(e) => setSelector(e.currentTarget.value)} placeholder='{"schema_name":"chat.message.v1"}' aria-invalid={selErr ? "true" : undefined} />
          </label>
          <button type="submit">Apply</button>
        </form>
        {selErr && <p class="error">{selErr}</p>}
        <div class="actions">
          {paused ? (
            <button type="button" onClick={resume}>
              Resume{held ? ` (${held} new)` : ""}
            </button>
          ) : (
            <button type="button" onClick={() => setPaused(true)}>
              Pause
            </button>
          )}
          <button type="button" class="ghost" onClick={() => setEvents([])}>
            Clear
          </button>
          <span class={`live ${state}`} aria-live="polite">
            {state === "live" ? "● live" : state}
          </span>
        </div>
      </div>
      <ErrorBox error={error} />
      <table class="list" aria-label="Live events">
        <thead>
          <tr>
            <th scope="col">seq</th>
            <th scope="col">Event</th>
            <th scope="col">Title</th>
            <th scope="col">Schema</th>
            <th scope="col">Tags</th>
            <th scope="col">v</th>
            <th scope="col">At</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((e) => (
            <tr key={e.seq}>
              <td class="num">{e.seq}</td>
              <td>
                <span class={`ev ev-${e.type.replace("breadcrumb.", "")}`}>{e.type.replace("breadcrumb.", "")}</span>
              </td>
              <td>
                <a href={href("breadcrumbs", e.id)}>{e.title || e.id}</a>
              </td>
              <td class="mono">{e.schema_name}</td>
              <td>
                <Tags tags={e.tags} />
              </td>
              <td class="num">{e.version}</td>
              <td>
                <Time at={e.at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {!shown.length && <p class="muted">Waiting for writes… (only events from now on are shown)</p>}
    </div>
  );
}
