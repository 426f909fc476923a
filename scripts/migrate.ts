// npm run db:migrate: applies the SQL migrations in drizzle/ to the configured database.
import { closeDatabase, initDatabase } from "~/db/client.server";
import { getEnv } from "~/lib/env.server";

async function main() {
  const env = getEnv();
  await initDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR, poolMax: 1 });
  await closeDatabase();
  console.log(`Migrations appliquées (${env.DATABASE_URL ? "PostgreSQL" : `PGlite, ${env.DATA_DIR}`}).`);
}

main().catch(async (error: unknown) => {
  console.error("Échec des migrations :", error instanceof Error ? error.message : error);
  await closeDatabase().catch(() => {});
  process.exit(1);
});
