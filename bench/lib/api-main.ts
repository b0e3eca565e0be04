// Child-process entry: one API on its own event loop, so the load generator in the parent does not
// steal its CPU time. Prints one JSON line `{"url": ...}` when listening; SIGTERM closes it cleanly
// (which also lets `--cpu-prof` write its profile).
import { loadApiConfig, startApi } from "@crumbs/api";

// Background problems and access lines go to the process logger (LOG_LEVEL, LOG_FORMAT) on stderr.
const api = await startApi({ config: loadApiConfig(process.env) });
process.stdout.write(`${JSON.stringify({ url: api.url })}\n`);

let closing = false;
process.on("SIGTERM", () => {
  if (closing) return;
  closing = true;
  void api.close().finally(() => process.exit(0));
});
