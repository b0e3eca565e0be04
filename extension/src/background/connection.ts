import { createApi, type CrumbsApi } from "../shared/api-client.ts";
import { connectionKey, readConfig, type Config } from "../shared/state/config.ts";

// What every bus feature needs for one call: the settings, an API client and the connection's
// identity. Read from storage each time: the worker may be new, the options may have changed.

export interface Connection {
  config: Config;
  api: CrumbsApi;
  key: string;
}

export async function currentConnection(): Promise<Connection | undefined> {
  const r = await readConfig();
  if (!r.ok) return undefined;
  return { config: r.config, api: createApi({ apiUrl: r.config.apiUrl, token: r.config.token }), key: connectionKey(r.config) };
}
