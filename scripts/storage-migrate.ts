// npm run storage:migrate -- --from database|local|s3 --to database|local|s3
// Copies every stored object to the other store, resumable and verified (decision 039); the
// destination is configured like the app (STORAGE_S3_*, DATABASE_URL, DATA_DIR).
import { closeDatabase, initDatabase } from "~/db/client.server";
import { getEnv } from "~/lib/env.server";
import { describeMigration, migrateObjects, migrationStores } from "~/lib/storage/migrate.server";
import { storageNamed } from "~/lib/storage/storage.server";
import { createCli } from "./cli";

const cli = createCli("Usage : npm run storage:migrate -- --from database|local|s3 --to database|local|s3");

async function main() {
  const values = cli.parse({ from: { type: "string" }, to: { type: "string" } });
  if (!values) return;
  const stores = migrationStores(cli.string(values.from), cli.string(values.to));
  if ("error" in stores) return cli.fail(stores.error);
  const env = getEnv();
  await initDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR, poolMax: 2 });
  const source = storageNamed(stores.from);
  const destination = storageNamed(stores.to);
  try {
    const summary = await migrateObjects(source, destination, (line) => {
      if (line.outcome !== "skipped") console.log(`${line.outcome === "copied" ? "copié" : "ÉCHEC"} ${line.key}${line.detail ? ` : ${line.detail}` : ""}`);
    });
    console.log(describeMigration(stores.from, stores.to, summary));
    if (summary.failed.length > 0) process.exitCode = 1;
  } finally {
    source.destroy?.();
    destination.destroy?.();
    await closeDatabase();
  }
}

main().catch(async (error: unknown) => {
  console.error("Échec de la migration du stockage :", error instanceof Error ? error.message : error);
  await closeDatabase().catch(() => {});
  process.exit(1);
});
