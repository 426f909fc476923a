// What the reputation rules read from mediation (issue 14 §2 and §4): per member, how many
// mediations ended with a complaint upheld ("fondée") against them, and how many of those were
// confidentiality breaches. Only decided mediations count ("résolue" with an upheld complaint).
import { sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";

export type UpheldMediationCounts = { upheld: number; confidentialityBreaches: number };

/**
 * Counts for each given member, keyed by profile id (profiles.id, not the auth user id); members
 * without any upheld mediation get zeros. One statement whatever the number of ids.
 */
export async function upheldMediationCounts(profileIds: readonly string[], handle: Db = db): Promise<Map<string, UpheldMediationCounts>> {
  const ids = [...new Set(profileIds)].filter((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id));
  const counts = new Map<string, UpheldMediationCounts>(ids.map((id) => [id, { upheld: 0, confidentialityBreaches: 0 }]));
  if (ids.length === 0) return counts;
  const rows = await queryRows<{ profile_id: string; upheld: number | string; breaches: number | string }>(
    sql`select upheld_against_id as profile_id, count(*) as upheld, count(*) filter (where breach_kind = 'confidentiality') as breaches
      from mediations
      where upheld and status = 'resolved' and upheld_against_id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})
      group by upheld_against_id`,
    handle,
  );
  for (const r of rows) counts.set(r.profile_id, { upheld: Number(r.upheld), confidentialityBreaches: Number(r.breaches) });
  return counts;
}
