import { defineConfig } from 'drizzle-kit';

// `npx drizzle-kit generate --config apps/server/drizzle.config.ts` writes a new SQL
// migration from schema changes; review it and commit it with the schema.
export default defineConfig({
  dialect: 'postgresql',
  schema: './apps/server/src/db/schema.ts',
  out: './apps/server/src/db/migrations',
});
