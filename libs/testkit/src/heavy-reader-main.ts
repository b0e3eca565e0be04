// The child process of spawnHeavyReader: runs the reader and reports its counts over IPC, so its
// parsing of multi-MB pages never shares an event loop with the client whose latency is measured.
import { startHeavyReader, type HeavyReader, type HeavyReaderOptions } from "./heavy-reader.ts";

let reader: HeavyReader | undefined;
let ticker: NodeJS.Timeout | undefined;
process.on("message", (msg: { start?: HeavyReaderOptions; stop?: true }) => {
  if (msg.start && !reader) {
    reader = startHeavyReader(msg.start);
    ticker = setInterval(() => process.send?.({ stats: reader?.stats }), 100);
  }
  if (msg.stop) {
    clearInterval(ticker);
    void (reader?.stop() ?? Promise.resolve(undefined)).then((stats) => process.send?.({ stats, final: true }, () => process.exit(0)));
  }
});
