// The figures of the 'Mes Mandats' cards: for each of the member's mandates, its
// potential matches and its requests waiting for an answer — computed with the list itself, in
// one statement for the whole page.
//
// The count is the matching panel's list counted: the same candidates (opposite
// type, active, not ended, not the member's own, owner still a validated member), the same
// score (`scoreSql`, at least 1) and sector filter (`sectorFitSql`); it stops at MATCH_COUNT_CAP:
// a card says '99+' rather than scanning on, and the panel « 20 premiers sur plus de 99 ».
import { type SQL, sql } from "drizzle-orm";
import { MATCH_COUNT_CAP } from "~/features/mandates/mandate-rules";
import type { MandateCardFigures } from "~/features/mandates/mandate-row";
import { listMyMandatesWithCounts, PARIS_TODAY_SQL, type MandateActor, type OwnMandate } from "~/features/mandates/mandates.server";
import { buyerColumns, scoreSql, sectorFitSql, sellerColumns } from "./matching.server";
import { memoByObject } from "~/lib/memo";

function potentialMatchesOf(candidateType: "buyer" | "seller") {
  // The outer row is the unaliased `mandates`; the candidates are `c`.
  const [b, sel] = candidateType === "seller" ? [buyerColumns("mandates"), sellerColumns("c")] : [buyerColumns("c"), sellerColumns("mandates")];
  const s = scoreSql(b, sel);
  const type = sql.raw(`'${candidateType}'`);
  return sql`(select count(*)::int from (select 1 from mandates c
    where c.mandate_type = ${type} and c.status = 'active' and c.end_date >= ${PARIS_TODAY_SQL}
      and c.profile_id <> mandates.profile_id
      and c.profile_id not in (select x.id from profiles x
        where x.profile_status in ('pending_validation', 'rejected', 'suspended'))
      and ${sectorFitSql(b, sel)}
      and ${s.sector} + ${s.territory} + ${s.valuation} + ${s.contribution} >= 1
    limit ${sql.raw(String(MATCH_COUNT_CAP + 1))}) potential)`;
}

// A mandate on hold, ended or past the search is not offered, so it is not matched either.
const potentialMatchesSql = sql`(case when mandates.status <> 'active' or mandates.end_date < ${PARIS_TODAY_SQL} then 0
  when mandates.mandate_type = 'buyer' then ${potentialMatchesOf("seller")}
  else ${potentialMatchesOf("buyer")} end)`;

const pendingSentSql = sql`(select count(*)::int from mandate_match_requests r
  where r.requester_mandate_id = mandates.id and r.status = 'pending')`;

export type MandateWithFigures = OwnMandate & MandateCardFigures;

/**
 * The member's mandates, newest first, each with its cards' figures: one statement. `extra`
 * adds integer columns to the same statement (listMyMandatesWithCounts: a module constant, its
 * placeholders' values in `values`).
 */
export async function listMandateCards<K extends string = never>(
  actor: MandateActor,
  extra: Record<K, SQL> = NO_EXTRA as Record<K, SQL>,
  values: Record<string, unknown> = {},
): Promise<Array<MandateWithFigures & Record<K, number>>> {
  return listMyMandatesWithCounts(actor, withFigures(extra), values);
}

const NO_EXTRA: Record<string, SQL> = {};
const countsByExtra = memoByObject((extra: Record<string, SQL>): Record<string, SQL> => ({ ...extra, potentialMatches: potentialMatchesSql, pendingSent: pendingSentSql }));

/** `extra` and the cards' figures, the same object for the same `extra` (the statement is built once per object). */
function withFigures<K extends string>(extra: Record<K, SQL>): Record<K | keyof MandateCardFigures, SQL> {
  return countsByExtra(extra) as Record<K | keyof MandateCardFigures, SQL>;
}
