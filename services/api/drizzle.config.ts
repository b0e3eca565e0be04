import { defineConfig } from "drizzle-kit";

// The API owns its migrations; `crumbs migrate` and the API at start apply the same files.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/schema.ts",
  out: "../../migrations",
});
