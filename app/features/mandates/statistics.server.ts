// The member's mandate statistics for the dashboard (spec §2 "Stats tab"), all scoped by the
// acting member and counted in SQL.
import { type SQL, sql } from "drizzle-orm";
import { jsonValue, queryRows, withReusablePlan } from "~/db/query.server";
import {
  ATTENTION_DAYS,
  effectiveStatus,
  mandateExpiry,
  parisToday,
  type MandateStatus,
  type MandateType,
} from "./mandate-rules";
import type { MandateActor } from "./mandates.server";
import { daysToClose, lastTwelveMonths, median, type MonthBucket } from "./statistics";

export type RecentMandate = { id: string; clientCode: string; mandateType: MandateType; status: MandateStatus; endDate: string };

export type MandateStatistics = {
  total: number;
  active: number;
  buyer: number;
  seller: number;
  /** Active mandates ending within the 7-day attention window. */
  expiringSoon: number;
  expired: number;
  /** Out of the matching while an offer is under way, and done for good. */
  negotiating: number;
  concluded: number;
  connections: number;
  pendingReceived: number;
  /** A mandate with requests waiting for the member's answer (quick action target). */
  pendingMandateId: string | null;
  latest: RecentMandate[];
  expiring: Array<{ id: string; clientCode: string; endDate: string; daysLeft: number }>;
};

type CountsRow = {
  total: number | string;
  active: number | string;
  buyer: number | string;
  seller: number | string;
  expiring_soon: number | string;
  expired: number | string;
  negotiating: number | string;
  concluded: number | string;
};

type Json<T> = T | string;
const parsed = <T>(v: Json<T> | null | undefined, fallback: T): T => jsonValue(v) ?? fallback;

type StatisticsRow = CountsRow & {
  connections: number | string;
  pending: Json<Array<{ target_mandate_id: string; n: number }>> | null;
  latest: Json<Array<{ id: string; client_code: string; mandate_type: MandateType; status: MandateStatus; end_date: string }>> | null;
  expiring: Json<Array<{ id: string; client_code: string; end_date: string }>> | null;
};

/** One row: counts, connections, requests, lists. */
function statisticsSql(actor: MandateActor, today: string): SQL {
  const me = sql`${actor.profileId}::uuid`;
  return sql`
    select c.*,
      (select count(*)::int
        from mandate_match_requests a
        join mandate_match_requests b on b.requester_mandate_id = a.target_mandate_id and b.target_mandate_id = a.requester_mandate_id
        join mandates m on m.id = a.requester_mandate_id
        where m.profile_id = ${me} and a.status = 'accepted' and b.status = 'accepted') as connections,
      (select json_agg(json_build_object('target_mandate_id', p.target_mandate_id, 'n', p.n) order by p.latest desc)
        from (select r.target_mandate_id, count(*)::int as n, max(r.created_at) as latest
              from mandate_match_requests r join mandates m on m.id = r.target_mandate_id
              where m.profile_id = ${me} and r.status = 'pending'
              group by r.target_mandate_id) p) as pending,
      (select json_agg(json_build_object('id', l.id, 'client_code', l.client_code, 'mandate_type', l.mandate_type, 'status', l.status, 'end_date', l.end_date) order by l.created_at desc, l.id)
        from (select id, client_code, mandate_type::text as mandate_type, status::text as status, end_date::text as end_date, created_at
              from mandates where profile_id = ${me} order by created_at desc, id limit 3) l) as latest,
      (select json_agg(json_build_object('id', e.id, 'client_code', e.client_code, 'end_date', e.end_date) order by e.end_date, e.id)
        from (select id, client_code, end_date::text as end_date
              from mandates
              where profile_id = ${me} and status = 'active'
                and end_date between ${today}::date and ${today}::date + ${ATTENTION_DAYS}::int) e) as expiring
    from (
      select count(*)::int as total,
        count(*) filter (where status = 'active' and end_date >= ${today}::date)::int as active,
        count(*) filter (where mandate_type = 'buyer')::int as buyer,
        count(*) filter (where mandate_type = 'seller')::int as seller,
        count(*) filter (where status = 'active' and end_date between ${today}::date and ${today}::date + ${ATTENTION_DAYS}::int)::int as expiring_soon,
        count(*) filter (where status = 'expired' or (end_date < ${today}::date and status in ('active', 'on_hold')))::int as expired,
        count(*) filter (where status = 'negotiating')::int as negotiating,
        count(*) filter (where status = 'concluded')::int as concluded
      from mandates where profile_id = ${me}
    ) c`;
}

function toStatistics(row: StatisticsRow | undefined, today: string): MandateStatistics {
  const counts = row;
  const connections = { n: row?.connections ?? 0 };
  const pending = parsed(row?.pending, []);
  const latest = parsed(row?.latest, []);
  const expiring = parsed(row?.expiring, []);
  return {
    total: Number(counts?.total ?? 0),
    active: Number(counts?.active ?? 0),
    buyer: Number(counts?.buyer ?? 0),
    seller: Number(counts?.seller ?? 0),
    expiringSoon: Number(counts?.expiring_soon ?? 0),
    expired: Number(counts?.expired ?? 0),
    negotiating: Number(counts?.negotiating ?? 0),
    concluded: Number(counts?.concluded ?? 0),
    connections: Number(connections?.n ?? 0),
    pendingReceived: pending.reduce((sum, r) => sum + Number(r.n), 0),
    pendingMandateId: pending[0]?.target_mandate_id ?? null,
    latest: latest.map((m) => ({
      id: m.id,
      clientCode: m.client_code,
      mandateType: m.mandate_type,
      status: effectiveStatus(m.status, m.end_date, today),
      endDate: m.end_date,
    })),
    expiring: expiring.map((m) => ({
      id: m.id,
      clientCode: m.client_code,
      endDate: m.end_date,
      daysLeft: mandateExpiry(m.end_date, today).daysLeft,
    })),
  };
}

/** One statement (a page's statements are counted): counts, connections, requests, lists. */
export async function getMandateStatistics(actor: MandateActor): Promise<MandateStatistics> {
  const today = parisToday();
  const [row] = await queryRows<StatisticsRow>(statisticsSql(actor, today));
  return toStatistics(row, today);
}

export type MandateCharts = {
  months: Array<MonthBucket & { buyer: number; seller: number }>;
  requests: Array<{ status: "pending" | "accepted" | "rejected"; sent: number; received: number }>;
};

type ChartsRow = {
  created: Json<Array<{ month: string; mandate_type: MandateType; n: number | string }>> | null;
  requests: Json<Array<{ status: "pending" | "accepted" | "rejected"; sent: number | string; received: number | string }>> | null;
};

/** One row: mandates created per month over 12 months (by type) and requests by status. */
function chartsSql(actor: MandateActor, today: string): SQL {
  const months = lastTwelveMonths(today);
  const me = sql`${actor.profileId}::uuid`;
  // The requests: one branch per side, each walking the member's mandates and the request index
  // of that side (an OR across the two joins scanned every
  // request).
  return sql`
    select
      (select json_agg(x) from (
        select to_char(created_at at time zone 'Europe/Paris', 'YYYY-MM') as month, mandate_type::text as mandate_type,
          count(*)::int as n
        from mandates
        where profile_id = ${me} and created_at >= (${`${months[0].month}-01`}::date)::timestamp at time zone 'Europe/Paris'
        group by 1, 2) x) as created,
      (select json_agg(y) from (
        select status, sum(sent)::int as sent, sum(received)::int as received from (
          select r.status::text as status, 1 as sent, 0 as received
          from mandate_match_requests r join mandates m on m.id = r.requester_mandate_id where m.profile_id = ${me}
          union all
          select r.status::text, 0, 1
          from mandate_match_requests r join mandates m on m.id = r.target_mandate_id where m.profile_id = ${me}
        ) sides
        group by status) y) as requests`;
}

function toCharts(row: ChartsRow | undefined, today: string): MandateCharts {
  const months = lastTwelveMonths(today);
  const created = parsed(row?.created, []);
  const requests = parsed(row?.requests, []);
  const count = (month: string, type: MandateType) => Number(created.find((c) => c.month === month && c.mandate_type === type)?.n ?? 0);
  return {
    months: months.map((m) => ({ ...m, buyer: count(m.month, "buyer"), seller: count(m.month, "seller") })),
    requests: (["pending", "accepted", "rejected"] as const).map((status) => {
      const row = requests.find((r) => r.status === status);
      return { status, sent: Number(row?.sent ?? 0), received: Number(row?.received ?? 0) };
    }),
  };
}

/** Mandates created per month over 12 months (buyer vs seller) and requests by status: one statement. */
export async function getMandateCharts(actor: MandateActor): Promise<MandateCharts> {
  const today = parisToday();
  const [row] = await queryRows<ChartsRow>(chartsSql(actor, today));
  return toCharts(row, today);
}

export type ClosingStatistics = {
  /** Files concluded by both members (stage 'concluded'), whichever side the member was on. */
  concluded: number;
  /** Median of the days from the introduction (the file's opening) to the closing; null for none. */
  medianDaysToClose: number | null;
};

/** The median is taken over the member's latest closings, at most this many (a bounded read). */
export const CLOSINGS_MEDIAN_WINDOW = 500;

type ClosingsRow = { n: number | string; recent: Json<Array<{ created_at: string; concluded_at: string }>> | null };

/**
 * « Rapprochements conclus via le réseau » and « Délai médian entre la mise en relation et la
 * conclusion »: only two-sided closings count (a proposal awaiting confirmation or an abandoned
 * file does not). One branch per side, each on its member index.
 */
function closingsSql(actor: Pick<MandateActor, "profileId">): SQL {
  const me = sql`${actor.profileId}::uuid`;
  return sql`
    select
      (select count(*) from collaboration_files where member_a_id = ${me} and stage = 'concluded' and concluded_at is not null)
        + (select count(*) from collaboration_files where member_b_id = ${me} and stage = 'concluded' and concluded_at is not null) as n,
      (select json_agg(json_build_object('created_at', c.created_at, 'concluded_at', c.concluded_at))
        from (select created_at, concluded_at from (
                select created_at, concluded_at from collaboration_files where member_a_id = ${me} and stage = 'concluded' and concluded_at is not null
                union all
                select created_at, concluded_at from collaboration_files where member_b_id = ${me} and stage = 'concluded' and concluded_at is not null
              ) u
              order by concluded_at desc
              limit ${CLOSINGS_MEDIAN_WINDOW}) c) as recent`;
}

function toClosings(row: ClosingsRow | undefined): ClosingStatistics {
  const rows = parsed(row?.recent, []);
  return {
    concluded: Number(row?.n ?? 0),
    medianDaysToClose: median(rows.map((r) => daysToClose(new Date(r.created_at), new Date(r.concluded_at)))),
  };
}

export async function getClosingStatistics(actor: Pick<MandateActor, "profileId">): Promise<ClosingStatistics> {
  const [row] = await queryRows<ClosingsRow>(closingsSql(actor));
  return toClosings(row);
}

export type StatisticsPage = { stats: MandateStatistics; closings: ClosingStatistics; charts: MandateCharts | null };

/**
 * Everything the 'Stats' tab shows in one statement (a page's statements are counted): the mandate statistics, the closings and, when the member's tier has them, the charts —
 * each part the row of its own function above, carried as JSON.
 */
export async function getStatisticsPage(actor: MandateActor, withCharts: boolean): Promise<StatisticsPage> {
  const today = parisToday();
  // Keyed by the member: a generic plan runs it as fast and saves planning it.
  const [row] = await queryRows<{ stats: Json<StatisticsRow> | null; closings: Json<ClosingsRow> | null; charts: Json<ChartsRow> | null }>(withReusablePlan(sql`
    select (select row_to_json(s) from (${statisticsSql(actor, today)}) s) as stats,
      (select row_to_json(c) from (${closingsSql(actor)}) c) as closings,
      ${withCharts ? sql`(select row_to_json(g) from (${chartsSql(actor, today)}) g)` : sql`null::json`} as charts`));
  const stats = parsed<StatisticsRow | undefined>(row?.stats, undefined);
  const closings = parsed<ClosingsRow | undefined>(row?.closings, undefined);
  return {
    stats: toStatistics(stats, today),
    closings: toClosings(closings),
    charts: withCharts ? toCharts(parsed<ChartsRow | undefined>(row?.charts, undefined), today) : null,
  };
}
