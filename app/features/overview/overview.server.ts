// The figures of the 'Aperçu' tab in one statement, every part of it on an index
// of the member's own rows (mandates_profile_created_idx, messages_recipient_idx) or on the
// newest candidates since the last visit (mandates_*_newest_idx, created_at first): nothing grows
// with the size of the network except what is new. The to-dos are not here: they are the
// member's open notification to-dos, read with the bell.
import { type SQL, sql } from "drizzle-orm";
import { queryRows, queryRowsKept, withReusablePlan } from "~/db/query.server";
import { EXPIRING_SOON_DAYS, parisToday } from "~/features/mandates/mandate-rules";
import { PARIS_TODAY_SQL } from "~/features/mandates/mandates.server";
import { buyerColumns, scoreSql, sectorFitSql, sellerColumns } from "~/features/matching/matching.server";
import { SCORE_CAP } from "~/features/matching/match-score";
import { FOUNDING_PLACES, remainingPlaces } from "~/features/onboarding/onboarding-steps";
import { getCache } from "~/lib/cache.server";
import { NEW_MATCHES_CAP, type OverviewFigures } from "./overview-rules";

/** A match worth telling the member about. */
export const NEW_MATCH_MIN_SCORE = 60;
/** The newest candidates of each type looked at (what is new past them is counted on the next visits). */
export const NEW_CANDIDATES_WINDOW = 2_000;

type Row = {
  new_matches: number | string;
  new_matches_at: Date | string | null;
  expiring: number | string;
  unread: number | string;
  unread_at: Date | string | null;
  active_mandates: number | string;
  paid_members: number | string;
};

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

/**
 * New counterpart mandates scoring at least NEW_MATCH_MIN_SCORE against one of the member's
 * active mandates, created since `since`: one branch per own type, the candidate type a literal
 * so that the planner walks that type's newest index from `since` on.
 */
// Only what the score reads: every column is in the key of the type's newest index (index-only).
const candidateColumns = {
  seller: "w.id, w.created_at, w.profile_id, w.company_sector, w.company_territory, w.valuation_amount, w.required_contribution_min, w.required_contribution_max",
  buyer: "w.id, w.created_at, w.profile_id, w.search_sectors, w.search_territories, w.target_amount_min, w.target_amount_max, w.contribution_min, w.contribution_max",
};

function newMatchesSql(me: SQL, since: Date): SQL {
  const branch = (own: "buyer" | "seller") => {
    const [b, sel] = own === "buyer" ? [buyerColumns("o"), sellerColumns("c")] : [buyerColumns("c"), sellerColumns("o")];
    const s = scoreSql(b, sel);
    const total = sql`least(${sql.raw(String(SCORE_CAP))}, ${s.sector} + ${s.territory} + ${s.valuation} + ${s.contribution})`;
    const other = sql.raw(own === "buyer" ? "'seller'" : "'buyer'");
    // The newest candidates first, in the order of mandates_*_newest_idx (`desc nulls last, id`: a
    // plain `desc` is `nulls first`, which made the planner sort the whole window of the index
    // instead of stopping after NEW_CANDIDATES_WINDOW entries), at most NEW_CANDIDATES_WINDOW of them:
    // a member back after months on a busy network does not make the page score them all.
    return sql`select c.id, c.created_at from mandates o
      join (select ${sql.raw(candidateColumns[own === "buyer" ? "seller" : "buyer"])} from mandates w where w.mandate_type = ${other} and w.status = 'active'
        and w.created_at > ${since.toISOString()}::timestamptz and w.end_date >= ${PARIS_TODAY_SQL} and w.profile_id <> ${me}
        order by w.created_at desc nulls last, w.id limit ${NEW_CANDIDATES_WINDOW}) c on true
      where o.profile_id = ${me} and o.mandate_type = ${sql.raw(`'${own}'`)} and o.status = 'active'
        and o.end_date >= ${PARIS_TODAY_SQL} and ${total} >= ${NEW_MATCH_MIN_SCORE} and ${sectorFitSql(b, sel)}
        and c.profile_id not in (select x.id from profiles x where x.profile_status in ('pending_validation', 'rejected', 'suspended'))`;
  };
  return sql`(select distinct on (n.id) n.id, n.created_at from (${branch("buyer")} union all ${branch("seller")}) n
    order by n.id limit ${NEW_MATCHES_CAP + 1})`;
}

/**
 * The count of new matches: it reads mandates and profiles only, so it is kept with the rankings
 * of potential matches until one of them is written. Scoring the newest
 * candidates was most of the overview's time in PostgreSQL.
 */
export function newMatchesCountSql(profileId: string, since: Date): SQL {
  const me = sql`${profileId}::uuid`;
  return sql`select count(*) as new_matches, max(created_at) as new_matches_at from ${newMatchesSql(me, since)} new_matches`;
}

/** The overview's statement but the new matches (exported for the benchmark's EXPLAIN). */
export function overviewFiguresSql(profileId: string): SQL {
  const me = sql`${profileId}::uuid`;
  return sql`
      with mine as (
        select id, status, end_date from mandates where profile_id = ${me}
      ),
      unread as (
        select created_at from messages where recipient_id = ${me} and is_read = false
      )
      select
        (select count(*) from mine where status = 'active' and end_date between ${PARIS_TODAY_SQL}
          and ${PARIS_TODAY_SQL} + ${sql.raw(String(EXPIRING_SOON_DAYS))}) as expiring,
        (select count(*) from unread) as unread,
        (select max(created_at) from unread) as unread_at,
        (select count(*) from mine where status = 'active' and end_date >= ${PARIS_TODAY_SQL}) as active_mandates,
        -- Places left need the count only up to the number of places.
        (select count(*) from (select 1 from profiles where profile_status = 'validated'
          and membership_type <> 'freemium' limit ${FOUNDING_PLACES}) paid) as paid_members`;
}

/** The figures of the overview of `profileId`, with what is new since `since`. */
export async function getOverviewFigures(actor: { profileId: string }, since: Date): Promise<OverviewFigures & { foundingPlaces: number }> {
  // Keyed by the member: its generic plan is as good as a custom one and saves planning it on
  // every view.
  const [[r], [n]] = await Promise.all([
    queryRows<Omit<Row, "new_matches" | "new_matches_at">>(withReusablePlan(overviewFiguresSql(actor.profileId))),
    queryRowsKept<Pick<Row, "new_matches" | "new_matches_at">>(getCache("rankings"), withReusablePlan(newMatchesCountSql(actor.profileId, since)), parisToday()),
  ]);
  return {
    newMatches: Number(n.new_matches),
    newMatchesAt: iso(n.new_matches_at),
    expiringSoon: Number(r.expiring),
    unread: Number(r.unread),
    unreadAt: iso(r.unread_at),
    activeMandates: Number(r.active_mandates),
    foundingPlaces: remainingPlaces(Number(r.paid_members)),
  };
}
