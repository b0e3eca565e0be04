// zod/mini for what a browser bundles: the contract's light schemas (browser-action, action-result,
// task-cancel) and the extension's own. zod/mini shares zod's core with classic zod, so the API
// and the runner use these schemas like any other (parse, toJSONSchema, inside classic objects),
// while a bundle that imports only zod/mini leaves classic zod's methods out.
//
// Import it as a namespace (`import * as z from "@crumbs/schemas/zod-mini"`): a bundler follows
// `export *` and keeps only what is used, where a re-exported namespace object (`export { z }`)
// would keep every locale.
import { config } from "zod/mini";
import en from "zod/v4/locales/en.js";

// Classic zod sets English messages when its first schema is built; a bundle without classic zod
// must do it itself, or every message reads "Invalid input".
if (!config().localeError) config(en());

export * from "zod/mini";
