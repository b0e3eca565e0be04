import { GenericContainer, Wait, type StartedTestContainer } from "testcontainers";
import { composeImage, testServices } from "./containers.ts";

/**
 * vitest's globalSetup (vitest.config.ts). With CRUMBS_TEST_SERVICES=containers, one Postgres for the
 * whole run in a container of the image docker-compose.yml runs, with trust auth as the local one has;
 * TEST_PG_URL names it for the test processes, which start after this (postgres-db.ts reads it).
 * nats-servers are per test file: NatsServer starts each in its own container. Local: nothing to do.
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (testServices !== "containers") return undefined;
  const container: StartedTestContainer = await new GenericContainer(await composeImage("postgres"))
    .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: "trust" })
    .withExposedPorts(5432)
    // Over TCP, so the entrypoint's socket-only first start does not count.
    .withWaitStrategy(Wait.forSuccessfulCommand("pg_isready -h 127.0.0.1 -U postgres"))
    .withStartupTimeout(120_000)
    .start();
  process.env.TEST_PG_URL = `postgres://postgres@${container.getHost()}:${container.getMappedPort(5432)}/postgres`;
  return async () => {
    await container.stop({ timeout: 10_000 });
  };
}
