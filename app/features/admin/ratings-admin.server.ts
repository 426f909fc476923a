// Moderation of ratings: the ratings members reported, and the admins' decision —
// hide the rating with a reason, or keep it. The decision closes every open report of the rating,
// refreshes the rated member's reputation and leaves an audit row, in one transaction.
import { sql } from "drizzle-orm";
import type { SessionUser } from "~/auth/session.server";
import { db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { isUuid } from "~/lib/uuid";
import { refreshReputation } from "~/features/trust/reputation.server";
import type { RatingCriterion } from "~/features/trust/reputation-rules";
import type { ModerationInput } from "~/features/trust/ratings.schema";
import { AdminActionError } from "./admin-errors";
import { recordAdminAction } from "./audit.server";

export type ReportedRating = {
  id: string;
  ratedName: string;
  raterName: string;
  scores: Record<RatingCriterion, number>;
  comment: string | null;
  answer: string | null;
  createdAt: string;
  reports: { reason: string; createdAt: string }[];
};

type Row = {
  id: string;
  rated_name: string | null;
  rater_name: string;
  responsiveness: number;
  professionalism: number;
  confidentiality: number;
  comment: string | null;
  answer: string | null;
  created_at: Date | string;
  reports: Array<{ reason: string; created_at: string }> | string;
};

/** Ratings with an open report, oldest report first (at most 50: a queue, not an archive). */
export async function listReportedRatings(): Promise<ReportedRating[]> {
  const rows = await queryRows<Row>(sql`
    select r.id, trim(p.first_name || ' ' || p.last_name) as rated_name, r.rater_name, r.responsiveness, r.professionalism,
           r.confidentiality, r.comment, r.answer, r.created_at,
           (select json_agg(json_build_object('reason', x.reason, 'created_at', x.created_at) order by x.created_at)
              from rating_reports x where x.rating_id = r.id and x.resolved_at is null) as reports
    from collaboration_ratings r
    left join profiles p on p.id = r.rated_id
    where r.hidden_at is null and exists (select 1 from rating_reports o where o.rating_id = r.id and o.resolved_at is null)
    order by (select min(o.created_at) from rating_reports o where o.rating_id = r.id and o.resolved_at is null)
    limit 50`);
  return rows.map((r) => {
    const reports = typeof r.reports === "string" ? (JSON.parse(r.reports) as Array<{ reason: string; created_at: string }>) : (r.reports ?? []);
    return {
      id: r.id,
      ratedName: r.rated_name ?? "Compte supprimé",
      raterName: r.rater_name,
      scores: { responsiveness: Number(r.responsiveness), professionalism: Number(r.professionalism), confidentiality: Number(r.confidentiality) },
      comment: r.comment,
      answer: r.answer,
      createdAt: new Date(r.created_at).toISOString(),
      reports: reports.map((x) => ({ reason: x.reason, createdAt: new Date(x.created_at).toISOString() })),
    };
  });
}

export const MODERATION_MESSAGES = {
  hidden: "L’évaluation est masquée",
  kept: "L’évaluation est maintenue",
  notFound: "Évaluation introuvable",
  alreadyHidden: "Cette évaluation est déjà masquée.",
} as const;

/** Hides a rating (with its reason) or keeps it; closes its open reports either way. */
export async function moderateRating(admin: Pick<SessionUser, "id">, input: ModerationInput): Promise<void> {
  if (!isUuid(input.ratingId)) throw new AdminActionError(404, MODERATION_MESSAGES.notFound);
  await db.transaction(async (tx) => {
    const [r] = await queryRows<{ id: string; rated_id: string; hidden_at: Date | null; rated_name: string | null }>(
      sql`select r.id, r.rated_id, r.hidden_at, trim(p.first_name || ' ' || p.last_name) as rated_name
          from collaboration_ratings r left join profiles p on p.id = r.rated_id
          where r.id = ${input.ratingId}::uuid for update of r`,
      tx,
    );
    if (!r) throw new AdminActionError(404, MODERATION_MESSAGES.notFound);
    if (r.hidden_at) throw new AdminActionError(409, MODERATION_MESSAGES.alreadyHidden);
    const outcome = input.decision === "hide" ? "hidden" : "kept";
    if (input.decision === "hide") {
      await tx.execute(sql`update collaboration_ratings set hidden_at = now(), hidden_by = ${admin.id}, hidden_reason = ${input.reason}
        where id = ${r.id}::uuid`);
    }
    await tx.execute(sql`update rating_reports set resolved_at = now(), resolved_by = ${admin.id}, outcome = ${outcome}
      where rating_id = ${r.id}::uuid and resolved_at is null`);
    await recordAdminAction(tx, admin, {
      action: input.decision === "hide" ? "rating.hide" : "rating.keep",
      targetId: r.id,
      details: { target: r.rated_name ?? "Compte supprimé", ...(input.decision === "hide" ? { reason: input.reason } : {}) },
    });
    if (input.decision === "hide") await refreshReputation([r.rated_id], tx);
  });
}
