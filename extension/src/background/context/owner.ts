import { livingState } from "./tracker.ts";
import { ensureLiving } from "./living-breadcrumb.ts";
import { pageTags } from "./capture.ts";
import type { Connection } from "../connection.ts";

// The owner of the token on an open NATS, where no credentials name it (with the owner's
// credentials the worker takes it from them and writes nothing here). The API has no "who am I",
// but the living breadcrumb carries its owner: find or create it (it is created as "Loading..."
// before the first capture) and read it.

export async function ownerOf(conn: Connection, extensionId: string): Promise<string> {
  const saved = await livingState.get();
  if (saved && saved.connection === conn.key) return saved.owner;
  const { state } = await ensureLiving(
    { api: conn.api, extensionId, connection: conn.key, state: livingState },
    {
      title: "Browser: Loading...",
      tags: pageTags(extensionId, ""),
      context: { url: "about:blank", domain: "loading", title: "Loading...", session: { extensionId, capturedAt: new Date().toISOString() } },
      fingerprint: "loading",
    },
  );
  return state.owner;
}
