import { natsServers, natsServersSchema } from "@crumbs/schemas";
import { UnavailableError } from "../../errors.ts";
import { errors, json, named } from "../openapi/components.ts";
import { apiRoute, defineRoute, newRouter } from "../openapi/define.ts";

const route = apiRoute({
  method: "get",
  path: "/servers",
  operationId: "getNatsServers",
  tags: ["nats"],
  summary: "The NATS servers a client of this API connects to",
  description:
    "`CRUMBS_NATS_PUBLIC_URL`, else `NATS_URL`, as a list: with the credentials of `POST /v1/nats/credentials`, all an owner's " +
    "process needs besides its token (the SDK's `new CrumbsClient({url, token})` asks here when no NATS URL is given).",
  scope: "subscribe",
  responses: { 200: json(named(natsServersSchema, "NatsServers"), "The servers"), ...errors(503) },
});

/** `GET /v1/nats/servers` (subscribe scope). */
export function natsServerRoutes(deps: { natsUrl: string | undefined }) {
  const app = newRouter();
  const servers = deps.natsUrl ? natsServers(deps.natsUrl) : [];
  defineRoute(app, route, (c) => {
    if (servers.length === 0) throw new UnavailableError("this API was given no NATS URL to tell clients");
    return c.json({ servers });
  });
  return app;
}
