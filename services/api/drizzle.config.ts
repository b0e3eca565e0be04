import { defineConfig } from "drizzle-kit";

// Migrations live at the repo root so `crumbs migrate` and the API apply the same files.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/schema.ts",
  out: "../../migrations",
});
