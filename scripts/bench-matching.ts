// npx tsx scripts/bench-matching.ts [--runs N] [--limit L]
// Times the matcher (features/matching rankCandidates: the score in SQL over the candidate set,
// best L fetched in full) for random active mandates of the configured database, and prints
// p50 / p95 / max. Seed a large database first, e.g.
//   createdb -h 127.0.0.1 -U postgres rt_mbench
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/rt_mbench npx tsx scripts/seed.ts --members 100000
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/rt_mbench npx tsx scripts/bench-matching.ts
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { closeDatabase, initDatabase } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { candidatesQuery } from "~/features/matching/matching.server";
import { getEnv } from "~/lib/env.server";
import { sampleMatchSources, timeMatching } from "./bench/in-process";

async function main() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { runs: { type: "string" }, limit: { type: "string" }, explain: { type: "boolean" } },
  });
  const runs = Number(values.runs ?? 200);
  const limit = Number(values.limit ?? 20);
  const env = getEnv();
  const { driver } = await initDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR, migrate: false });
  const [{ active }] = await queryRows<{ active: number }>(sql`select count(*)::int as active from mandates where status = 'active'`);
  const sources = await sampleMatchSources(runs);
  const timed = await timeMatching(runs, limit, sources);
  if (values.explain) {
    const plan = await queryRows<Record<string, string>>(sql`explain (analyze, buffers) ${candidatesQuery(sources[0], { limit })}`);
    console.log(plan.map((r) => Object.values(r)[0]).join("\n"));
  }
  const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
  console.log(
    `Matcher (${driver}) — ${active} mandats actifs, ${timed.runs} requêtes, top ${limit} : ` +
      `p50 ${fmt(timed.p50)}, p95 ${fmt(timed.p95)}, max ${fmt(timed.max)}`,
  );
  await closeDatabase();
}

main().catch(async (error) => {
  console.error(error);
  await closeDatabase();
  process.exit(1);
});
