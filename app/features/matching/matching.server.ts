// Potential matches (spec §2 "Matching panel", §9): the score is computed in SQL over the
// candidate set — opposite type, active, not ended, not the member's own, owner still a
// validated member — and only the best rows are fetched in full.
//
// Indexes: one partial index per type, in creation order, whose key holds every column the score
// reads (mandates_buyer_newest_idx, mandates_seller_newest_idx), so ranking 50 000 candidates is
// an index-only scan; the full rows (with the counterpart projection) are read for the top N only.
// (The cards' counts read mandates_*_candidates_idx, end date first.)
import { type SQL, sql } from "drizzle-orm";
import { queryRows, queryRowsKept, withReusablePlan } from "~/db/query.server";
import { getCache } from "~/lib/cache.server";
import {
  isMatchable,
  oppositeType,
  parisToday,
  type MandateType,
  MATCH_COUNT_CAP,
} from "~/features/mandates/mandate-rules";
import { getMyMandate, PARIS_TODAY_SQL, type MandateActor, type OwnMandate } from "~/features/mandates/mandates.server";
import { counterpartColumns, toCounterpart, type CounterpartMandate, type CounterpartRow } from "./counterpart.server";
import {
  criteriaVerdicts,
  MATCHES_PAGE_SIZE,
  SCORE_CAP,
  SCORE_WEIGHTS,
  type BuyerCriteria,
  type CriteriaVerdicts,
  type ScoreBreakdown,
  type SellerInfo,
} from "./match-score";

type BuyerSide = { sectors: SQL; territories: SQL; targetMin: SQL; targetMax: SQL; contributionMin: SQL; contributionMax: SQL };
type SellerSide = { sector: SQL; territory: SQL; valuation: SQL; requiredMin: SQL; requiredMax: SQL };

function textArrayParam(values: readonly string[] | null): SQL {
  if (!values || values.length === 0) return sql`null::text[]`;
  return sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;
}
const textParam = (v: string | null) => sql`${v}::text`;
const bigintParam = (v: number | null) => sql`${v}::bigint`;

export function buyerColumns(alias: string): BuyerSide {
  const c = (name: string) => sql.raw(`${alias}.${name}`);
  return {
    sectors: c("search_sectors"),
    territories: c("search_territories"),
    targetMin: c("target_amount_min"),
    targetMax: c("target_amount_max"),
    contributionMin: c("contribution_min"),
    contributionMax: c("contribution_max"),
  };
}

export function sellerColumns(alias: string): SellerSide {
  const c = (name: string) => sql.raw(`${alias}.${name}`);
  return {
    sector: c("company_sector"),
    territory: c("company_territory"),
    valuation: c("valuation_amount"),
    requiredMin: c("required_contribution_min"),
    requiredMax: c("required_contribution_max"),
  };
}

function buyerParams(b: BuyerCriteria): BuyerSide {
  return {
    sectors: textArrayParam(b.searchSectors),
    territories: textArrayParam(b.searchTerritories),
    targetMin: bigintParam(b.targetAmountMin),
    targetMax: bigintParam(b.targetAmountMax),
    contributionMin: bigintParam(b.contributionMin),
    contributionMax: bigintParam(b.contributionMax),
  };
}

function sellerParams(s: SellerInfo): SellerSide {
  return {
    sector: textParam(s.companySector),
    territory: textParam(s.companyTerritory),
    valuation: bigintParam(s.valuationAmount),
    requiredMin: bigintParam(s.requiredContributionMin),
    requiredMax: bigintParam(s.requiredContributionMax),
  };
}

/**
 * The four sub-scores of spec §9 as SQL, the same rule as `matchScore`. A missing field makes
 * its comparison NULL, and `case when NULL` gives 0: "each criterion needs the fields on both
 * sides" falls out of SQL's three-valued logic.
 */
export function scoreSql(b: BuyerSide, s: SellerSide): Record<Exclude<keyof ScoreBreakdown, "total">, SQL> {
  return {
    sector: sql`(case when ${s.sector} = any(${b.sectors}) then ${sql.raw(String(SCORE_WEIGHTS.sector))} else 0 end)`,
    territory: sql`(case when ${s.territory} is not null and (${s.territory} = any(${b.territories})
      or ${b.territories} && array['france', 'france_entiere']::text[]) then ${sql.raw(String(SCORE_WEIGHTS.territory))} else 0 end)`,
    valuation: sql`(case when ${s.valuation} between ${b.targetMin} and ${b.targetMax}
      then ${sql.raw(String(SCORE_WEIGHTS.valuation))} else 0 end)`,
    contribution: sql`(case when ${b.contributionMin} <= ${s.requiredMax} and ${s.requiredMin} <= ${b.contributionMax}
      then ${sql.raw(String(SCORE_WEIGHTS.contribution))} else 0 end)`,
  };
}

/**
 * `sectorsFit` as SQL: true unless both sides name sectors and the seller's is not among the
 * buyer's. Every count and list of potential matches (panel, cards, alerts, opportunities, the
 * overview's new matches) filters on it.
 */
export function sectorFitSql(b: Pick<BuyerSide, "sectors">, s: Pick<SellerSide, "sector">): SQL {
  return sql`(${b.sectors} is null or cardinality(${b.sectors}) = 0 or ${s.sector} is null or ${s.sector} = any(${b.sectors}))`;
}

/** The score's four parts and the sector filter of a candidate `c` against `source`. */
function candidateRule(source: MatchSource, alias: string) {
  if (oppositeType(source.mandateType) === "buyer") {
    const b = buyerColumns(alias);
    const s = sellerParams(source);
    return { scores: scoreSql(b, s), fits: sectorFitSql(b, s) };
  }
  const b = buyerParams(source);
  const s = sellerColumns(alias);
  return { scores: scoreSql(b, s), fits: sectorFitSql(b, s) };
}

/** What the ranking needs of the mandate we look for matches for. */
export type MatchSource = BuyerCriteria &
  SellerInfo & { id: string; profileId: string; mandateType: MandateType };

export type PotentialMatch = CounterpartMandate & { score: ScoreBreakdown; criteria: CriteriaVerdicts };

type RankedRow = CounterpartRow & {
  sector_score: number | string;
  territory_score: number | string;
  valuation_score: number | string;
  contribution_score: number | string;
  total: number | string;
};

/** The criteria in words between one of the member's mandates and a counterpart. */
export function verdictsBetween(own: BuyerCriteria & SellerInfo & { mandateType: MandateType }, other: BuyerCriteria & SellerInfo): CriteriaVerdicts {
  return own.mandateType === "buyer" ? criteriaVerdicts(own, other) : criteriaVerdicts(other, own);
}

function toPotential(r: RankedRow, source: MatchSource): PotentialMatch {
  const counterpart = toCounterpart(r);
  return {
    ...counterpart,
    criteria: verdictsBetween(source, counterpart),
    score: {
      sector: Number(r.sector_score),
      territory: Number(r.territory_score),
      valuation: Number(r.valuation_score),
      contribution: Number(r.contribution_score),
      total: Number(r.total),
    },
  };
}

type RankOptions = {
  limit: number;
  minScore?: number;
  excludeProfileId?: string;
  /**
   * Only candidates reaching the best possible score for this source, looked for among the
   * `newestWindow` newest active mandates of the opposite type (the first pass of rankCandidates).
   */
  newestWindow?: number;
};

/**
 * The first pass of rankCandidates looks at up to this many of the newest candidates. It stops as
 * soon as it has `limit` perfect scores, so a large window costs nothing when they are common; it
 * bounds the walk when they are rare (then the full ranking runs).
 */
export const NEWEST_WINDOW = 20_000;

/** The best total a candidate can reach against `source`: the weights of the criteria it fills. */
export function maxScoreFor(source: MatchSource): number {
  const has = (...values: unknown[]) => values.every((v) => v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0));
  const w = SCORE_WEIGHTS;
  const total =
    source.mandateType === "buyer"
      ? (has(source.searchSectors) ? w.sector : 0) +
        (has(source.searchTerritories) ? w.territory : 0) +
        (has(source.targetAmountMin, source.targetAmountMax) ? w.valuation : 0) +
        (has(source.contributionMin, source.contributionMax) ? w.contribution : 0)
      : (has(source.companySector) ? w.sector : 0) +
        (has(source.companyTerritory) ? w.territory : 0) +
        (has(source.valuationAmount) ? w.valuation : 0) +
        (has(source.requiredContributionMin, source.requiredContributionMax) ? w.contribution : 0);
  return Math.min(SCORE_CAP, total);
}

/** The key of each type's newest index: what the ranking reads of a candidate. */
const CANDIDATE_COLUMNS = {
  buyer: "w.created_at, w.id, w.end_date, w.profile_id, w.search_sectors, w.search_territories, w.target_amount_min, w.target_amount_max, w.contribution_min, w.contribution_max",
  seller: "w.created_at, w.id, w.end_date, w.profile_id, w.company_sector, w.company_territory, w.valuation_amount, w.required_contribution_min, w.required_contribution_max",
} as const;

/** The `top` part of a ranking: ids and totals of the best candidates, `limit` of them. */
function topQuery(source: MatchSource, options: RankOptions): SQL {
  const candidateType = oppositeType(source.mandateType);
  const { scores, fits } = candidateRule(source, "c");
  // The scan computes the total only (one expression per candidate, half the work of also
  // selecting the four sub-scores); the sub-scores are computed for the `limit` rows kept.
  const total = sql`(${scores.sector} + ${scores.territory} + ${scores.valuation} + ${scores.contribution})`;
  const exclude = options.excludeProfileId ?? source.profileId;
  // The type is a literal (not a parameter) so that the planner can pick the partial index of
  // that type whatever the plan cache does. Members not (or no longer) validated are few: a
  // hashed subplan over them (profiles_status_created_idx; an `in` list, `<>` would not use
  // the index) keeps the scan index-only.
  const type = sql.raw(`'${candidateType}'`);
  // The candidates in creation order, from the key of their type's newest index
  // (mandates_*_newest_idx holds every column the score reads): an index-only scan, already in
  // the order of the ties. First pass: the newest `newestWindow` of them, kept when they reach
  // the best possible score; the scan stops after `limit` of them or at the window's end. Full
  // ranking: all of them, read through this index rather than the parallel Seq Scan the planner's
  // estimate would prefer.
  const candidates = sql`(select ${sql.raw(CANDIDATE_COLUMNS[candidateType])} from mandates w
      where w.mandate_type = ${type} and w.status = 'active'
      order by w.created_at desc nulls last, w.id ${options.newestWindow ? sql`limit ${options.newestWindow}` : sql``}) c`;
  const rank = options.newestWindow
    ? sql`and ${total} >= ${maxScoreFor(source)} order by c.created_at desc nulls last, c.id`
    : sql`order by total desc, c.created_at desc, c.id`;
  return sql`select c.id, c.created_at, least(${sql.raw(String(SCORE_CAP))}, ${total}) as total
      from ${candidates}
      where c.end_date >= ${PARIS_TODAY_SQL}
        and ${fits}
        and c.profile_id <> ${exclude}::uuid
        and c.profile_id not in (select x.id from profiles x
          where x.profile_status in ('pending_validation', 'rejected', 'suspended'))
      ${rank}
      limit ${options.limit}`;
}

/**
 * The rows kept from `top`: their sub-scores and the counterpart projection, best first; with
 * `ordinal`, their rank as `ord` (kept when several rankings share a statement).
 */
function keptQuery(source: MatchSource, options: RankOptions, ordinal = false): SQL {
  const kept = candidateRule(source, "m").scores;
  return sql`select ${kept.sector} as sector_score, ${kept.territory} as territory_score,
      ${kept.valuation} as valuation_score, ${kept.contribution} as contribution_score, top.total,
      ${ordinal ? sql`row_number() over (order by top.total desc, top.created_at desc, top.id) as ord,` : sql``}
      ${counterpartColumns("m", "p")}
    from top join mandates m on m.id = top.id join profiles p on p.id = m.profile_id
    where top.total >= ${options.minScore ?? 1}
    order by top.total desc, top.created_at desc, top.id`;
}

/** The ranking query of one pass (exported for the benchmark's EXPLAIN). */
export function candidatesQuery(source: MatchSource, options: RankOptions): SQL {
  return sql`
    with top as (${topQuery(source, options)})
    ${keptQuery(source, options)}`;
}

/**
 * The whole ranking in one statement (a page's statements are counted). Its plan does
 * not depend on the source's values: they only feed the score expressions and the `<>` on the
 * owner, the candidate type is a literal, the limits are fixed by each caller. So it runs with a
 * reusable plan: PostgreSQL's generic plan is the custom one (same index-only
 * scans) without planning on every view. Nothing scores
 * above the best possible total, and ties go to the newest: so when `limit` candidates reach it
 * among the newest NEWEST_WINDOW (the first pass, `perfect`), they are exactly the answer —
 * usually found by walking a few hundred index entries instead of scoring every active mandate of
 * the opposite type. Otherwise (few perfect matches) the full ranking runs; its condition on the
 * first pass's count is a constant of the statement, so PostgreSQL skips that scan altogether
 * when the first pass answered (a one-time filter).
 */
export function rankingQuery(source: MatchSource, options: RankOptions, ordinal = false): SQL {
  const best = maxScoreFor(source);
  if (!(options.limit > 0 && best > 0 && best >= (options.minScore ?? 1))) {
    return sql`
      with top as (${topQuery(source, { ...options, newestWindow: undefined })})
      ${keptQuery(source, options, ordinal)}`;
  }
  const window = options.newestWindow ?? NEWEST_WINDOW;
  const answered = sql`(select count(*) from perfect) = ${options.limit}`;
  return sql`
    with perfect as (${topQuery(source, { ...options, newestWindow: window })}),
    ranked as (select * from (${topQuery(source, { ...options, newestWindow: undefined })}) f where not ${answered}),
    top as (select * from perfect where ${answered} union all select * from ranked)
    ${keptQuery(source, options, ordinal)}`;
}

/**
 * The best opposite mandates for `source`, by score (then newest). `minScore` 1 keeps only
 * compatible ones ('Aucun mandat compatible trouvé pour le moment' otherwise). One statement.
 */
export async function rankCandidates(source: MatchSource, options: RankOptions): Promise<PotentialMatch[]> {
  // Kept by the instance until a mandate, a profile or a request is written.
  const rows = await queryRowsKept<RankedRow>(getCache("rankings"), withReusablePlan(rankingQuery(source, options)), parisToday());
  return rows.map((r) => toPotential(r, source));
}

export function matchSourceOf(m: OwnMandate, profileId: string): MatchSource {
  return {
    id: m.id,
    profileId,
    mandateType: m.mandateType,
    searchSectors: m.searchSectors,
    searchTerritories: m.searchTerritories,
    targetAmountMin: m.targetAmountMin,
    targetAmountMax: m.targetAmountMax,
    contributionMin: m.contributionMin,
    contributionMax: m.contributionMax,
    companySector: m.companySector,
    companyTerritory: m.companyTerritory,
    valuationAmount: m.valuationAmount,
    requiredContributionMin: m.requiredContributionMin,
    requiredContributionMax: m.requiredContributionMax,
  };
}

export const POTENTIAL_MATCHES_LIMIT = MATCHES_PAGE_SIZE;

/**
 * How many potential matches `source` has, up to MATCH_COUNT_CAP + 1: the rule of the ranking
 * (the same candidates, score at least 1 and sector filter), counted. The cards count the same
 * way in their own statement (mandate-cards.server.ts); a test holds the three together.
 */
export async function countPotentialMatches(source: MatchSource): Promise<number> {
  const { scores, fits } = candidateRule(source, "c");
  const type = sql.raw(`'${oppositeType(source.mandateType)}'`);
  const [row] = await queryRows<{ n: number | string }>(sql`select count(*)::int as n from (select 1 from mandates c
    where c.mandate_type = ${type} and c.status = 'active' and c.end_date >= ${PARIS_TODAY_SQL}
      and c.profile_id <> ${source.profileId}::uuid
      and c.profile_id not in (select x.id from profiles x
        where x.profile_status in ('pending_validation', 'rejected', 'suspended'))
      and ${fits}
      and ${scores.sector} + ${scores.territory} + ${scores.valuation} + ${scores.contribution} >= 1
    limit ${sql.raw(String(MATCH_COUNT_CAP + 1))}) potential`);
  return Number(row?.n ?? 0);
}

/**
 * 'Mandats potentiels' of one of the member's mandates (404 for anyone else's). Empty when the
 * mandate itself is on hold or ended: it is not offered, so it is not matched either. `known` is
 * that mandate when the caller already read it among the actor's own (not read again).
 */
export async function listPotentialMatches(
  actor: MandateActor,
  mandateId: string,
  limit = POTENTIAL_MATCHES_LIMIT,
  known?: OwnMandate,
): Promise<{ mandate: OwnMandate; matchable: boolean; matches: PotentialMatch[] }> {
  const mandate = known?.id === mandateId ? known : await getMyMandate(actor, mandateId);
  const matchable = isMatchable(mandate.status, mandate.endDate, parisToday());
  if (!matchable) return { mandate, matchable, matches: [] };
  const matches = await rankCandidates(matchSourceOf(mandate, actor.profileId), { limit });
  return { mandate, matchable, matches };
}

export type Opportunity = {
  own: { id: string; clientCode: string; mandateType: MandateType };
  match: PotentialMatch;
  /** The status of the request already sent from `own` to `match`, null if none. */
  sentStatus: string | null;
};

export const OPPORTUNITIES_PER_MANDATE = 10;
export const OPPORTUNITIES_LIMIT = 30;

/**
 * 'Opportunités': the best potential matches across all the member's active mandates, ranked.
 * A counterpart that fits several of the member's mandates appears once, with its best pair.
 * One statement whatever the number of mandates: each mandate's ranking (rankingQuery), with the
 * status of the request it already sent to each candidate.
 */
export async function listOpportunities(actor: MandateActor, own: readonly OwnMandate[]): Promise<Opportunity[]> {
  const today = parisToday();
  const sources = own.filter((m) => isMatchable(m.status, m.endDate, today));
  if (sources.length === 0) return [];
  const branches = sources.map(
    (m, i) => sql`select ${sql.raw(String(i))} as src, q.*,
        (select r.status::text from mandate_match_requests r
          where r.requester_mandate_id = ${m.id}::uuid and r.target_mandate_id = q.cp_id) as sent_status
      from (${rankingQuery(matchSourceOf(m, actor.profileId), { limit: OPPORTUNITIES_PER_MANDATE }, true)}) q`,
  );
  const rows = await queryRowsKept<RankedRow & { src: number | string; ord: number | string; sent_status: string | null }>(
    getCache("rankings"),
    withReusablePlan(sql`${sql.join(branches, sql` union all `)} order by src, ord`),
    today,
  );
  // Each mandate's matches in its ranking's order, the mandates in the member's order.
  const best = new Map<string, Opportunity>();
  for (const r of rows) {
    const m = sources[Number(r.src)]!;
    const o: Opportunity = { own: { id: m.id, clientCode: m.clientCode, mandateType: m.mandateType }, match: toPotential(r, matchSourceOf(m, actor.profileId)), sentStatus: r.sent_status };
    const current = best.get(o.match.id);
    if (!current || o.match.score.total > current.match.score.total) best.set(o.match.id, o);
  }
  return [...best.values()]
    .sort(
      (a, b) =>
        b.match.score.total - a.match.score.total ||
        b.match.createdAt.localeCompare(a.match.createdAt) ||
        a.match.id.localeCompare(b.match.id),
    )
    .slice(0, OPPORTUNITIES_LIMIT);
}
