// The reputation of members: figures computed in SQL over rolling windows and stored
// in member_reputation, so that a directory page reads them with one join whatever the number of
// members. Refreshed for the members concerned on the events that change them (a rating becomes
// visible or is hidden, a file ends, a mediation is decided) and for everyone by an hourly job
// (the responsiveness windows move with time). The badges are computed from the stored figures
// by the pure rules of ./reputation-rules at read time.
import { type SQL, sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { ANSWER_WITHIN_DAYS, RESPONSIVENESS_WINDOW_DAYS, TOP_PERFORMER_WINDOW_MONTHS, type ReputationFigures, type ResponsivenessFigures } from "./reputation-rules";
import { invalidate } from "~/lib/cache.server";

const FIGURES = [
  "requests_received",
  "requests_answered",
  "messages_received",
  "messages_answered",
  "median_response_hours",
  "files_total",
  "files_concluded",
  "files_abandoned",
  "files_with_undertaking",
  "concluded_last_12_months",
  "ratings_count",
  "rating_average",
  "responsiveness_average",
  "professionalism_average",
  "confidentiality_average",
  "upheld_mediations",
  "confidentiality_breaches",
] as const;

/** Some members, a range of profile ids (after, upTo] (the hourly job's batches), or everyone. */
type Scope = readonly string[] | { after: string; upTo: string } | null;

/** `col = any(ids)`, `col` in the range, or `true` for everyone. */
function scoped(column: SQL, ids: Scope): SQL {
  if (ids === null) return sql`true`;
  // A range, not a list, for the batches: the planner read `p.id = any(<1 000 ids>)` through a
  // whole index of profiles (0.7 s a batch at 100 000 members); a range is an index range scan.
  if (!Array.isArray(ids)) {
    const range = ids as { after: string; upTo: string };
    return sql`(${column} > ${range.after}::uuid and ${column} <= ${range.upTo}::uuid)`;
  }
  return sql`${column} = any(array[${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}]::uuid[])`;
}

/**
 * Mediations decided against each member (upheld), and those of a confidentiality breach, read
 * from the mediation module's table.
 */
function upheldMediationsQuery(ids: Scope): SQL {
  return sql`
    select m.upheld_against_id as profile_id, count(*)::int as upheld,
           count(*) filter (where m.breach_kind = 'confidentiality')::int as breaches
    from mediations m
    where m.upheld and m.status = 'resolved' and m.upheld_against_id is not null and ${scoped(sql`m.upheld_against_id`, ids)}
    group by m.upheld_against_id`;
}

/**
 * Recomputes the figures of the given members (all validated members with `null`) and the
 * Top Performer ranks. A row is written only when one of its figures changed.
 */
export async function refreshReputation(ids: Scope = null, handle: Db = db, options: { ranks?: boolean } = {}): Promise<void> {
  if (Array.isArray(ids) && ids.length === 0) return;
  const window = sql.raw(`interval '${RESPONSIVENESS_WINDOW_DAYS} days'`);
  const within = sql.raw(`interval '${ANSWER_WITHIN_DAYS} days'`);
  const year = sql.raw(`interval '${TOP_PERFORMER_WINDOW_MONTHS} months'`);
  // A request or message counts once its 7 days have passed or once it was answered: a message
  // received yesterday and not answered yet is not held against anyone.
  invalidate("member_reputation");
  await handle.execute(sql`
    with received as (
      select mm.profile_id, 'request' as kind,
             (r.responded_at is not null and r.responded_at <= r.created_at + ${within}) as answered,
             extract(epoch from (r.responded_at - r.created_at)) / 3600.0 as hours
      from mandate_match_requests r
      join mandates mm on mm.id = r.target_mandate_id
      where r.created_at >= now() - ${window} and (r.responded_at is not null or r.created_at < now() - ${within})
        and ${scoped(sql`mm.profile_id`, ids)}
      union all
      select m.recipient_id, 'message',
             (reply.at is not null and reply.at <= m.created_at + ${within}),
             extract(epoch from (reply.at - m.created_at)) / 3600.0
      from messages m
      left join lateral (
        select min(x.created_at) as at from messages x
        where x.sender_id = m.recipient_id and x.recipient_id = m.sender_id and x.created_at > m.created_at
      ) reply on true
      where m.message_type = 'internal' and m.sender_id is not null and m.created_at >= now() - ${window}
        and (reply.at is not null or m.created_at < now() - ${within})
        and ${scoped(sql`m.recipient_id`, ids)}
    ),
    responsiveness as (
      select profile_id,
             count(*) filter (where kind = 'request')::int as requests_received,
             count(*) filter (where kind = 'request' and answered)::int as requests_answered,
             count(*) filter (where kind = 'message')::int as messages_received,
             count(*) filter (where kind = 'message' and answered)::int as messages_answered,
             (percentile_cont(0.5) within group (order by hours) filter (where hours is not null))::real as median_response_hours
      from received group by profile_id
    ),
    files as (
      select x.profile_id, count(*)::int as files_total,
             count(*) filter (where f.stage = 'concluded')::int as files_concluded,
             count(*) filter (where f.stage = 'abandoned')::int as files_abandoned,
             count(*) filter (where f.stage = 'concluded' and f.concluded_at >= now() - ${year})::int as concluded_last_12_months,
             count(*) filter (where exists (
               select 1 from collaboration_events e
               where e.file_id = f.id and e.kind = 'connection:undertaking_signed' and e.actor_profile_id = x.profile_id))::int
               as files_with_undertaking
      from collaboration_files f
      cross join lateral (values (f.member_a_id), (f.member_b_id)) as x(profile_id)
      where x.profile_id is not null and ${scoped(sql`x.profile_id`, ids)}
      group by x.profile_id
    ),
    ratings as (
      select rated_id as profile_id, count(*)::int as ratings_count,
             avg((responsiveness + professionalism + confidentiality) / 3.0)::real as rating_average,
             avg(responsiveness)::real as responsiveness_average,
             avg(professionalism)::real as professionalism_average,
             avg(confidentiality)::real as confidentiality_average
      from collaboration_ratings
      where hidden_at is null and visible_at <= now() and ${scoped(sql`rated_id`, ids)}
      group by rated_id
    ),
    mediation as (${upheldMediationsQuery(ids)})
    insert into member_reputation (profile_id, ${sql.raw(FIGURES.join(", "))}, refreshed_at)
    select p.id,
           coalesce(rs.requests_received, 0), coalesce(rs.requests_answered, 0),
           coalesce(rs.messages_received, 0), coalesce(rs.messages_answered, 0), rs.median_response_hours,
           coalesce(f.files_total, 0), coalesce(f.files_concluded, 0), coalesce(f.files_abandoned, 0),
           coalesce(f.files_with_undertaking, 0), coalesce(f.concluded_last_12_months, 0),
           coalesce(rt.ratings_count, 0), rt.rating_average, rt.responsiveness_average,
           rt.professionalism_average, rt.confidentiality_average,
           coalesce(md.upheld, 0), coalesce(md.breaches, 0), now()
    from profiles p
    left join responsiveness rs on rs.profile_id = p.id
    left join files f on f.profile_id = p.id
    left join ratings rt on rt.profile_id = p.id
    left join mediation md on md.profile_id = p.id
    where p.profile_status = 'validated' and ${scoped(sql`p.id`, ids)}
    on conflict (profile_id) do update set
      ${sql.raw(FIGURES.map((c) => `${c} = excluded.${c}`).join(", "))}, refreshed_at = excluded.refreshed_at
    where (${sql.raw(FIGURES.map((c) => `member_reputation.${c}`).join(", "))})
      is distinct from (${sql.raw(FIGURES.map((c) => `excluded.${c}`).join(", "))})`);
  if (options.ranks !== false) await refreshTopPerformerRanks(handle);
}

/**
 * Top Performer: the share of members (with a concluded file in 12 months) who concluded
 * strictly more. Only rows with such files, or that had a rank, are read and written.
 */
async function refreshTopPerformerRanks(handle: Db): Promise<void> {
  invalidate("member_reputation");
  await handle.execute(sql`
    update member_reputation r set concluded_rank_share = s.share
    from (
      select profile_id,
             case when concluded_last_12_months > 0 then
               ((rank() over (order by concluded_last_12_months desc) - 1)::real
                 / count(*) filter (where concluded_last_12_months > 0) over ())::real
             end as share
      from member_reputation
      where concluded_last_12_months > 0 or concluded_rank_share is not null
    ) s
    where s.profile_id = r.profile_id and r.concluded_rank_share is distinct from s.share`);
}

/** Members refreshed per statement by the hourly job. */
export const REFRESH_BATCH = 1000;

/** One short transaction holding the job's advisory lock, or false when another instance has it. */
function underJobLock(run: (tx: Db) => Promise<void>): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [lock] = await queryRows<{ ok: boolean }>(sql`select pg_try_advisory_xact_lock(hashtext('rt_member_reputation')) as ok`, tx);
    if (!lock?.ok) return false;
    await run(tx);
    return true;
  });
}

/**
 * The hourly refresh of every validated member, in batches of `batch` members (keyset on the
 * profile id), each one statement in its own short transaction: at 100 000 members one statement
 * over everyone ran past the 15 s statement timeout under load, held every row it wrote until it
 * ended, and took the database's CPU from the pages meanwhile. A batch takes the job's advisory
 * lock; when another instance holds it, this one leaves the refresh to it and returns false.
 */
export async function refreshAllReputation(batch: number = REFRESH_BATCH): Promise<boolean> {
  let after = "00000000-0000-0000-0000-000000000000";
  for (;;) {
    const ids = (
      await queryRows<{ id: string }>(
        sql`select id from profiles where profile_status = 'validated' and id > ${after}::uuid order by id limit ${batch}`,
      )
    ).map((r) => r.id);
    if (ids.length === 0) break;
    const upTo = ids[ids.length - 1]!;
    const range = { after, upTo };
    if (!(await underJobLock((tx) => refreshReputation(range, tx, { ranks: false })))) return false;
    after = upTo;
    if (ids.length < batch) break;
  }
  return underJobLock(refreshTopPerformerRanks);
}

// ---------------------------------------------------------------------------------------------
// Reading

/** What the directories and profiles read of a member's reputation. */
export type StoredReputation = ReputationFigures & ResponsivenessFigures & { ratingAverage: number | null };

/** The columns a directory query selects (alias `rep` on a left join of member_reputation). */
export const REPUTATION_COLUMNS = sql.raw(`
  rep.files_total as rep_files_total, rep.files_concluded as rep_files_concluded, rep.files_abandoned as rep_files_abandoned,
  rep.files_with_undertaking as rep_files_with_undertaking, rep.concluded_last_12_months as rep_concluded_last_12_months,
  rep.concluded_rank_share as rep_concluded_rank_share, rep.confidentiality_average as rep_confidentiality_average,
  rep.ratings_count as rep_ratings_count, rep.rating_average as rep_rating_average,
  rep.upheld_mediations as rep_upheld_mediations, rep.confidentiality_breaches as rep_confidentiality_breaches`);

export type ReputationColumns = {
  rep_files_total: number | null;
  rep_files_concluded: number | null;
  rep_files_abandoned: number | null;
  rep_files_with_undertaking: number | null;
  rep_concluded_last_12_months: number | null;
  rep_concluded_rank_share: number | string | null;
  rep_confidentiality_average: number | string | null;
  rep_ratings_count: number | null;
  rep_rating_average: number | string | null;
  rep_upheld_mediations: number | null;
  rep_confidentiality_breaches: number | null;
};

const num = (v: number | string | null | undefined) => (v === null || v === undefined ? null : Number(v));

/** The figures of a joined row (an absent row reads as all zero). */
export function reputationFromColumns(r: ReputationColumns): ReputationFigures & { ratingAverage: number | null } {
  return {
    filesTotal: Number(r.rep_files_total ?? 0),
    filesConcluded: Number(r.rep_files_concluded ?? 0),
    filesAbandoned: Number(r.rep_files_abandoned ?? 0),
    filesWithUndertaking: Number(r.rep_files_with_undertaking ?? 0),
    concludedLast12Months: Number(r.rep_concluded_last_12_months ?? 0),
    concludedRankShare: num(r.rep_concluded_rank_share),
    confidentialityAverage: num(r.rep_confidentiality_average),
    ratingsCount: Number(r.rep_ratings_count ?? 0),
    ratingAverage: num(r.rep_rating_average),
    upheldMediations: Number(r.rep_upheld_mediations ?? 0),
    confidentialityBreaches: Number(r.rep_confidentiality_breaches ?? 0),
  };
}

/**
 * The responsiveness columns, for the internal directory only (members; alias `rep` as above):
 * the public directory never selects them.
 */
export const RESPONSIVENESS_COLUMNS = sql.raw(`
  rep.requests_received as rep_requests_received, rep.requests_answered as rep_requests_answered,
  rep.messages_received as rep_messages_received, rep.messages_answered as rep_messages_answered,
  rep.median_response_hours as rep_median_response_hours`);

export type ResponsivenessColumns = {
  rep_requests_received: number | null;
  rep_requests_answered: number | null;
  rep_messages_received: number | null;
  rep_messages_answered: number | null;
  rep_median_response_hours: number | string | null;
};

/** The responsiveness figures of a joined row (an absent row reads as nothing received). */
export function responsivenessFromColumns(r: ResponsivenessColumns): ResponsivenessFigures {
  return {
    requestsReceived: Number(r.rep_requests_received ?? 0),
    requestsAnswered: Number(r.rep_requests_answered ?? 0),
    messagesReceived: Number(r.rep_messages_received ?? 0),
    messagesAnswered: Number(r.rep_messages_answered ?? 0),
    medianResponseHours: num(r.rep_median_response_hours),
  };
}

/** One member's stored reputation (profile pages). */
export async function getReputation(profileId: string, handle: Db = db): Promise<StoredReputation | null> {
  const [r] = await queryRows<ReputationColumns & ResponsivenessColumns>(
    sql`select ${REPUTATION_COLUMNS}, ${RESPONSIVENESS_COLUMNS} from member_reputation rep where rep.profile_id = ${profileId}::uuid`,
    handle,
  );
  if (!r) return null;
  return { ...reputationFromColumns(r), ...responsivenessFromColumns(r) };
}
