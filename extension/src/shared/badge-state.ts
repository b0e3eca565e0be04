import type { BusStatus } from "./state/status.ts";

// What the toolbar icon says, from the worker's status and the actions awaiting the user: pure, so
// the rule is tested in node and the worker only paints it. The badge has room for about four
// characters; the tooltip carries the sentence.

export interface Badge {
  text: string;
  color: string;
  title: string;
}

const GREEN = "#1a7f37";
const AMBER = "#b35900";
const RED = "#cf222e";
const GREY = "#6e7781";

const plural = (n: number) => (n === 1 ? "1 action awaits" : `${n} actions await`);

export function badgeFor(status: BusStatus, awaiting: number): Badge {
  const api = status.api?.state;
  const nats = status.nats?.state;
  const waiting = awaiting > 0 ? `; ${plural(awaiting)} your confirmation in the side panel` : "";
  if (nats === "not_configured" || (!api && !nats)) {
    return { text: "set", color: GREY, title: "crumbs: not configured; open the options and enter the API URL, the token and the NATS WebSocket URL" };
  }
  // Confirmations first: the agent is stopped until the user answers, whatever the connection.
  const count = awaiting > 0 ? String(Math.min(awaiting, 99)) : undefined;
  if (api === "error" || api === "disconnected") {
    return { text: count ?? "API", color: RED, title: `crumbs: no API (${status.api?.detail ?? "cannot reach it"})${waiting}` };
  }
  if (nats !== "connected") {
    const why = nats === "connecting" ? "connecting" : (status.nats?.detail ?? "not connected");
    return { text: count ?? "NATS", color: RED, title: `crumbs: no NATS (${why}): agents' actions cannot reach this browser${waiting}` };
  }
  if (count) return { text: count, color: AMBER, title: `crumbs: connected${waiting}` };
  return { text: "on", color: GREEN, title: "crumbs: connected to the API and NATS" };
}
