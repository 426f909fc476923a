// npm run seed -- --members N [--seed S] [--password P] [--mandates M]
// Loads French demo data into the configured database (DATABASE_URL, else PGlite in DATA_DIR).
import { closeDatabase, initDatabase } from "~/db/client.server";
import { getEnv } from "~/lib/env.server";
import { createCli } from "./cli";
import { DEFAULT_DEMO_PASSWORD, seedDemoData } from "./seed-lib";

const USAGE = "Usage : npm run seed -- --members N [--seed S] [--password P] [--mandates M]";

const cli = createCli(USAGE);

async function main() {
  const values = cli.parse({
    members: { type: "string" },
    seed: { type: "string" },
    password: { type: "string" },
    mandates: { type: "string" },
  });
  if (!values) return;
  const members = cli.count("members", values.members, 200, 3);
  const seed = cli.count("seed", values.seed, 1, 0);
  const mandates = cli.count("mandates", values.mandates, members, 0);
  const password = cli.string(values.password) ?? DEFAULT_DEMO_PASSWORD;
  if (password.length < 6) cli.fail("--password : le mot de passe doit contenir au moins 6 caractères.");

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
