// Sponsor recommendations in the back office (spec §2 "Admin" Recommendations): counts, a
// server-side search by sponsor name, sponsor e-mail, member name or company, the sponsors'
// e-mails for the clipboard, and a CSV export. Every export leaves an audit row.
import { and, count, desc, eq, sql, type SQL } from "drizzle-orm";
import type { SessionUser } from "~/auth/session.server";
import { db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { profiles, recommendations } from "~/db/schema";
import { normalizeSearchText } from "~/db/search-text";
import { cached, getCache } from "~/lib/cache.server";
import { toCsv } from "~/lib/csv";
import { formatAdminDate } from "~/lib/format";
import { RECOMMENDATION_STATUS_LABELS } from "./admin-labels";
import { ADMIN_PAGE_SIZE, type RecommendationListQuery } from "./admin.schema";
import { recordAdminAction } from "./audit.server";

/** An export is one file: beyond this many rows, narrow the search. */
export const EXPORT_MAX_ROWS = 50_000;

export type RecommendationCounts = { total: number; confirmed: number; pending: number };

/**
 * Both counts over the whole table, on every view of the tab: they read the key of
 * recommendations_created_idx, which carries confirmed_at (index-only, not the table). The order
 * in the subquery is what makes the planner take the index (a bare count chose a parallel Seq
 * Scan). The cost grows with the table, so the instance keeps both counts until a recommendation
 * is written (any instance notifies 'rt_admin_counts' at commit, migration 0019).
 */
export async function getRecommendationCounts(): Promise<RecommendationCounts> {
  return cached(getCache("admin-totals"), "recommendations", async () => {
    const [row] = await queryRows<{ total: number | string; confirmed: number | string }>(sql`
      select count(*) as total, count(x.confirmed_at) as confirmed
      from (select confirmed_at from recommendations order by created_at desc nulls last, id, confirmed_at) x`);
    const total = Number(row?.total ?? 0);
    const confirmed = Number(row?.confirmed ?? 0);
    return { total, confirmed, pending: total - confirmed };
  });
}

export type AdminRecommendationRow = {
  id: string;
  sponsorName: string;
  sponsorEmail: string;
  memberName: string;
  company: string;
  status: "confirmed" | "pending";
  createdAt: string;
  confirmedAt: string | null;
};

export type AdminRecommendationPage = { rows: AdminRecommendationRow[]; total: number; page: number; pageCount: number };

function escapeLike(value: string) {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function searchWhere(q: string): SQL | undefined {
  const words = normalizeSearchText(q).split(" ").filter(Boolean).slice(0, 6);
  if (words.length === 0) return undefined;
  const haystack = sql`f_unaccent(lower(concat_ws(' ', ${recommendations.sponsorName}, ${recommendations.sponsorEmail}, ${profiles.firstName}, ${profiles.lastName}, ${profiles.company})))`;
  return and(...words.map((w) => sql`${haystack} like ${`%${escapeLike(w)}%`}`));
}

const columns = {
  id: recommendations.id,
  sponsorName: recommendations.sponsorName,
  sponsorEmail: recommendations.sponsorEmail,
  firstName: profiles.firstName,
  lastName: profiles.lastName,
  company: profiles.company,
  createdAt: recommendations.createdAt,
  confirmedAt: recommendations.confirmedAt,
};

type Row = { id: string; sponsorName: string; sponsorEmail: string; firstName: string; lastName: string; company: string; createdAt: Date; confirmedAt: Date | null };

function toRow(r: Row): AdminRecommendationRow {
  return {
    id: r.id,
    sponsorName: r.sponsorName,
    sponsorEmail: r.sponsorEmail,
    memberName: `${r.firstName} ${r.lastName}`,
    company: r.company,
    status: r.confirmedAt ? "confirmed" : "pending",
    createdAt: r.createdAt.toISOString(),
    confirmedAt: r.confirmedAt?.toISOString() ?? null,
  };
}

/** Newest first, as the prototype listed them. */
export async function listRecommendationsForAdmin(
  query: Pick<RecommendationListQuery, "q" | "page">,
  counts: Promise<RecommendationCounts> = getRecommendationCounts(),
): Promise<AdminRecommendationPage> {
  const where = searchWhere(query.q);
  // Without a search the total is the tiles' (every recommendation has its profile): not counted twice.
  const total = where
    ? Number(
        (await db.select({ n: count() }).from(recommendations).innerJoin(profiles, eq(profiles.id, recommendations.profileId)).where(where))[0]?.n ?? 0,
      )
    : (await counts).total;
  const pageCount = Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE));
  const page = Math.min(query.page, pageCount);
  const rows = await db
    .select(columns)
    .from(recommendations)
    .innerJoin(profiles, eq(profiles.id, recommendations.profileId))
    .where(where)
    // `nulls last` as in recommendations_created_idx (never null): the page walks it and stops.
    .orderBy(sql`${recommendations.createdAt} desc nulls last`, recommendations.id)
    .limit(ADMIN_PAGE_SIZE)
    .offset((page - 1) * ADMIN_PAGE_SIZE);
  return { rows: rows.map(toRow), total, page, pageCount };
}

/** The distinct sponsor e-mails of the filtered recommendations, for 'Exporter les emails'. */
export async function exportSponsorEmails(actor: Pick<SessionUser, "id">, q: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ email: recommendations.sponsorEmail })
    .from(recommendations)
    .innerJoin(profiles, eq(profiles.id, recommendations.profileId))
    .where(searchWhere(q))
    .orderBy(recommendations.sponsorEmail)
    .limit(EXPORT_MAX_ROWS);
  const emails = rows.map((r) => r.email);
  await recordAdminAction(db, actor, {
    action: "recommendations.export_emails",
    details: { target: "Recommandations", search: q, count: emails.length },
  });
  return emails;
}

export const RECOMMENDATIONS_CSV_HEADERS = [
  "Recommandé par",
  "Email",
  "Membre recommandé",
  "Société",
  "Statut",
  "Date de création",
  "Date de confirmation",
] as const;

/** The filtered rows as a CSV file (UTF-8 with BOM, formulas neutralised), newest first. */
export async function exportRecommendationsCsv(actor: Pick<SessionUser, "id">, q: string): Promise<{ csv: string; count: number }> {
  const rows = (
    await db
      .select(columns)
      .from(recommendations)
      .innerJoin(profiles, eq(profiles.id, recommendations.profileId))
      .where(searchWhere(q))
      .orderBy(desc(recommendations.createdAt), recommendations.id)
      .limit(EXPORT_MAX_ROWS)
  ).map(toRow);
  const csv = toCsv(
    RECOMMENDATIONS_CSV_HEADERS,
    rows.map((r) => [
      r.sponsorName,
      r.sponsorEmail,
      r.memberName,
      r.company,
      RECOMMENDATION_STATUS_LABELS[r.status],
      formatAdminDate(r.createdAt),
      formatAdminDate(r.confirmedAt),
    ]),
  );
  await recordAdminAction(db, actor, {
    action: "recommendations.export_csv",
    details: { target: "Recommandations", search: q, count: rows.length },
  });
  return { csv, count: rows.length };
}
