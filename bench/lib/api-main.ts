// Child-process entry: one API on its own event loop, so the load generator in the parent does not
// steal its CPU time. Prints one JSON line `{"url": ...}` when listening; SIGTERM closes it cleanly
// (which also lets `--cpu-prof` write its profile).
import { loadApiConfig, startApi } from "@crumbs/api";

const api = await startApi({ config: loadApiConfig(process.env), log: (msg, err) => console.error(`[api] ${msg}`, err ?? "") });
process.stdout.write(`${JSON.stringify({ url: api.url })}\n`);

let closing = false;
process.on("SIGTERM", () => {
  if (closing) return;
  closing = true;
  void api.close().finally(() => process.exit(0));
});
