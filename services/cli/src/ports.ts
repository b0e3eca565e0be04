import { createServer } from "node:net";

function tryListen(port: number, host: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once("error", () => resolve(undefined));
    srv.listen(port, host, () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === "object" && addr ? addr.port : undefined));
    });
  });
}

/** `preferred` when nobody listens on it, else a free port the OS picks. */
export async function pickPort(preferred: number, host = "127.0.0.1"): Promise<number> {
  const port = (await tryListen(preferred, host)) ?? (await tryListen(0, host));
  if (port === undefined) throw new Error(`no free TCP port on ${host}`);
  return port;
}
