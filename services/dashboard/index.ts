import { fileURLToPath } from "node:url";

/** Where `npm run build` puts the dashboard's static files; the API serves them at `/ui/`. */
export const dashboardDist = fileURLToPath(new URL("./dist", import.meta.url));
