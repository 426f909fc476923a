// npm run seed -- --members N [--seed S] [--password P] [--mandates M]
// Loads French demo data into the configured database (DATABASE_URL, else PGlite in DATA_DIR).
import { parseArgs } from "node:util";
import { closeDatabase, initDatabase } from "~/db/client.server";
import { getEnv } from "~/lib/env.server";
import { DEFAULT_DEMO_PASSWORD, seedDemoData } from "./seed-lib";

const USAGE = "Usage : npm run seed -- --members N [--seed S] [--password P] [--mandates M]";

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

function parseCount(name: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value.trim())) fail(`--${name} doit être un entier positif (reçu : ${value}).`);
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min) fail(`--${name} doit être un entier supérieur ou égal à ${min} (reçu : ${value}).`);
  return n;
}

async function main() {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(2),
      options: {
        members: { type: "string" },
        seed: { type: "string" },
        password: { type: "string" },
        mandates: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const str = (v: string | boolean | undefined) => (typeof v === "string" ? v : undefined);
  const members = parseCount("members", str(values.members), 200, 3);
  const seed = parseCount("seed", str(values.seed), 1, 0);
  const mandates = parseCount("mandates", str(values.mandates), members, 0);
  const password = str(values.password) ?? DEFAULT_DEMO_PASSWORD;
  if (password.length < 6) fail("--password : le mot de passe doit contenir au moins 6 caractères.");

  const env = getEnv();
  const target = env.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : `PGlite (${env.DATA_DIR})`;
  console.log(`Données de démonstration : ${members} membres, ${mandates} mandats, graine ${seed} → ${target}`);
  const { db } = await initDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR, poolMax: 2 });
  try {
    const result = await seedDemoData(db, { members, mandates, seed, password, log: (line) => console.log(line) });
    const seconds = (result.elapsedMs / 1000).toFixed(1);
    if (result.skipped) {
      console.log(`Les données de démonstration de la graine ${seed} sont déjà présentes : rien à faire.`);
    } else {
      const c = result.counts;
      console.log(
        [
          `Terminé en ${seconds} s :`,
          `  ${c.members} membres validés (${c.foundingMembers} fondateurs, ${c.premiumMembers} premium, ${c.freemiumMembers} freemium)`,
          `  ${c.applicants} candidats en attente, ${c.users} comptes`,
          `  ${c.recommendations} recommandations, ${c.certifiedDeals} deals certifiés, ${c.messages} messages`,
          `  ${c.mandates} mandats (${c.buyerMandates} acquéreurs, ${c.sellerMandates} cédants)`,
        ].join("\n"),
      );
    }
    console.log("Connexions de démonstration :");
    for (const login of result.logins) console.log(`  ${login.label.padEnd(34)} ${login.email}  /  ${login.password}`);
  } finally {
    await closeDatabase();
  }
}

main().catch(async (error: unknown) => {
  console.error("Échec du chargement des données de démonstration :", error instanceof Error ? error.message : error);
  await closeDatabase().catch(() => {});
  process.exit(1);
});
