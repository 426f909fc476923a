// `tsx tests/system/support/sql.ts "<statement>"`: runs one SQL statement on the configured
// database (DATABASE_URL, else PGlite in DATA_DIR) and prints its rows as one JSON line.
// System tests use it through sqlRows() (support/client.ts).
import { sql } from "drizzle-orm";
import { closeDatabase, initDatabase } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { getEnv } from "~/lib/env.server";

async function main() {
  const statement = process.argv[2];
  if (!statement) throw new Error("usage: tsx tests/system/support/sql.ts <statement>");
  const env = getEnv();
  const { db } = await initDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR, poolMax: 1 });
  try {
    const rows = await queryRows<Record<string, unknown>>(sql.raw(statement), db);
    console.log(JSON.stringify(rows ?? []));
  } finally {
    await closeDatabase();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
