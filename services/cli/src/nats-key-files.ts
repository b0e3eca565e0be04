import { join } from "node:path";
import { stateDir } from "./dev-token.ts";

/** The keys of the nats-server `crumbs start` runs from `cwd`. */
export const natsAuthDirOf = (cwd: string) => join(stateDir(cwd), "nats", "auth");

/** The files of a locked NATS in one folder (what `keys nats-init` and `crumbs start` write). */
export const natsKeyFiles = (dir: string) => ({
  authConf: join(dir, "auth.conf"),
  accountSeed: join(dir, "account.seed"),
  runnerCreds: join(dir, "runner.creds"),
});
