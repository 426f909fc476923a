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
import { candidatesQuery, rankCandidates, type MatchSource } from "~/features/matching/matching.server";
import { getEnv } from "~/lib/env.server";

type Row = {
  id: string;
  profile_id: string;
  mandate_type: "buyer" | "seller";
  search_sectors: string[] | null;
  search_territories: string[] | null;
  target_amount_min: string | number | null;
  target_amount_max: string | number | null;
  contribution_min: string | number | null;
  contribution_max: string | number | null;
  company_sector: string | null;
  company_territory: string | null;
  valuation_amount: string | number | null;
  required_contribution_min: string | number | null;
  required_contribution_max: string | number | null;
};

const n = (v: string | number | null) => (v === null ? null : Number(v));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

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
  const sample = await queryRows<Row>(sql`
    select id, profile_id, mandate_type::text as mandate_type, search_sectors, search_territories, target_amount_min,
      target_amount_max, contribution_min, contribution_max, company_sector, company_territory, valuation_amount,
      required_contribution_min, required_contribution_max
    from mandates where status = 'active' order by random() limit ${runs}`);
  const sources: MatchSource[] = sample.map((r) => ({
    id: r.id,
    profileId: r.profile_id,
    mandateType: r.mandate_type,
    searchSectors: r.search_sectors,
    searchTerritories: r.search_territories,
    targetAmountMin: n(r.target_amount_min),
    targetAmountMax: n(r.target_amount_max),
    contributionMin: n(r.contribution_min),
    contributionMax: n(r.contribution_max),
    companySector: r.company_sector,
    companyTerritory: r.company_territory,
    valuationAmount: n(r.valuation_amount),
    requiredContributionMin: n(r.required_contribution_min),
    requiredContributionMax: n(r.required_contribution_max),
  }));
  // Warm-up: caches and the first plans.
  for (const s of sources.slice(0, 5)) await rankCandidates(s, { limit });
  const times: number[] = [];
  for (const s of sources) {
    const t0 = performance.now();
    await rankCandidates(s, { limit });
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  if (values.explain) {
    const plan = await queryRows<Record<string, string>>(sql`explain (analyze, buffers) ${candidatesQuery(sources[0], { limit })}`);
    console.log(plan.map((r) => Object.values(r)[0]).join("\n"));
  }
  const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
  console.log(
    `Matcher (${driver}) — ${active} mandats actifs, ${times.length} requêtes, top ${limit} : ` +
      `p50 ${fmt(percentile(times, 50))}, p95 ${fmt(percentile(times, 95))}, max ${fmt(times[times.length - 1])}`,
  );
  await closeDatabase();
}

main().catch(async (error) => {
  console.error(error);
  await closeDatabase();
  process.exit(1);
});
