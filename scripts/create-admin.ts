// npm run admin:create -- --email E --password P
// Creates an administrator (e-mail verified, argon2 password) or promotes an existing account.
import { parseArgs } from "node:util";
import { closeDatabase, initDatabase } from "~/db/client.server";
import { CreateAdminError, createOrPromoteAdmin, describeAdminResult } from "~/features/admin/create-admin.server";
import { getEnv } from "~/lib/env.server";

const USAGE = "Usage : npm run admin:create -- --email E [--password P]";

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

async function main() {
  let email: string | undefined;
  let password: string | undefined;
  try {
    const { values } = parseArgs({
      args: process.argv.slice(2),
      options: { email: { type: "string" }, password: { type: "string" } },
      strict: true,
      allowPositionals: false,
    });
    email = values.email;
    password = values.password;
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  if (!email || email.trim() === "") fail("--email est obligatoire / --email is required.");

  const env = getEnv();
  const { db } = await initDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR, poolMax: 1 });
  try {
    const result = await createOrPromoteAdmin(db, { email, password });
    console.log(describeAdminResult(result));
  } catch (error) {
    if (error instanceof CreateAdminError) {
      await closeDatabase();
      fail(error.message);
    }
    throw error;
  } finally {
    await closeDatabase();
  }
}

main().catch(async (error: unknown) => {
  console.error("Échec / failure:", error instanceof Error ? error.message : error);
  await closeDatabase().catch(() => {});
  process.exit(1);
});
