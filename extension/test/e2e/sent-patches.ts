import type { E2E } from "./stack.ts";

/** One PATCH the extension's worker sent: its content type, body and size, the answer's status and (when it succeeded) the version it wrote. */
export interface SentPatch {
  type: string;
  bytes: number;
  body: string;
  status: number;
  version?: number;
}

/**
 * From now on, every PATCH the worker sends is recorded as it leaves it (its fetch wrapped once,
 * nothing else changes); `takeSentPatches` returns them and starts a new record.
 */
export async function recordSentPatches(e: E2E): Promise<void> {
  await (await e.worker()).evaluate(() => {
    const g = globalThis as unknown as { fetch: typeof fetch; sent?: unknown[] };
    g.sent = [];
    if ((g.fetch as { recording?: true }).recording) return;
    const original = g.fetch.bind(g);
    // Inline, not a named const: tsx would wrap a named function in a helper the worker does not have.
    g.fetch = Object.assign(async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await original(input, init);
      if (init?.method === "PATCH") {
        const body = String(init.body);
        const type = (init.headers as Record<string, string>)["content-type"] ?? "";
        const version = res.ok ? ((await res.clone().json()) as { version: number }).version : undefined;
        g.sent!.push({ type, bytes: new TextEncoder().encode(body).length, body, status: res.status, version });
      }
      return res;
    }, { recording: true as const });
  });
}

export async function takeSentPatches(e: E2E): Promise<SentPatch[]> {
  return (await e.worker()).evaluate(() => {
    const g = globalThis as unknown as { sent: SentPatch[] };
    const out = g.sent;
    g.sent = [];
    return out;
  });
}
