import { request } from "node:http";
import { TOKEN } from "./stack.ts";

/**
 * A streamed `/v1/events` client that reads the first chunk of the answer and goes away, the answer
 * far from written (the sockets buffer much less than it): how a reader that leaves mid-stream looks.
 */
export function readOneChunkAndLeave(url: string, path: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const req = request(`${url}${path}`, { headers: { accept: "application/x-ndjson", authorization: `Bearer ${TOKEN}` }, agent: false });
    req.on("error", reject);
    req.on("response", (res) => {
      if (res.statusCode !== 200) {
        req.destroy();
        reject(new Error(`GET ${path} answered ${res.statusCode}, not 200`));
        return;
      }
      res.once("data", () => {
        res.pause();
        req.destroy();
        resolve();
      });
    });
    req.end();
  });
}
