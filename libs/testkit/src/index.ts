export { NatsServer, type NatsServerOptions } from "./nats-server.ts";
export { NatsCluster, type NatsClusterOptions } from "./nats-cluster.ts";
export { createTestDatabase, adminUrl, type TestDatabase } from "./postgres-db.ts";
export { launchChromium, chromiumPath, chromiumArgs, type ChromiumWithExtension } from "./chromium.ts";
export { freePort } from "./free-port.ts";
export { waitFor } from "./wait-for.ts";
export { threadSchedMs } from "./thread-sched.ts";
export { seriesSamples, seriesValue, type Sample } from "./prometheus.ts";
export { PostgresServer, type PostgresServerOptions } from "./postgres-server.ts";
export { waitForConsumerDrained } from "./jetstream.ts";
export { composeImage, dockerEngine, testServices } from "./containers.ts";
export {
  FakeOpenAI,
  type RecordedRequest,
  type Script,
  type ScriptedReply,
  type ScriptedToolCall,
} from "./fake-openai.ts";
export { spawnHeavyReader, startHeavyReader, type HeavyReader, type HeavyReaderOptions, type HeavyReaderStats } from "./heavy-reader.ts";
export { fillSyntheticBreadcrumbs, SYNTHETIC } from "./synthetic-breadcrumbs.ts";
