// Ratings after a collaboration. When a file ends, each member rates the other once
// (three criteria, optional comment); both ratings stay hidden until both are in or the rating
// window closes 14 days after the end (double blind). The rated member may answer once; any
// member who sees a rating may report it; admins hide it with a reason or keep it (audited, in
// features/admin/ratings-admin.server.ts). The rated member gets an e-mail when a rating becomes
// visible (their notification preference for file steps), which never names a client.
import { sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { notifyCounterpart } from "~/features/collaboration/file-notify.server";
import { actorName, requireFileAccess, type FileActor } from "~/features/collaboration/file-access.server";
import { isUuid } from "~/lib/uuid";
import { completeTask, completeTasksNoLongerDue } from "~/features/notifications/notifications.server";
import { taskKey } from "~/features/notifications/event-rules";
import { startPeriodicJob, type PeriodicJob } from "~/lib/periodic-job.server";
import { consumeRateLimit, type RateLimitRule } from "~/lib/rate-limit.server";
import { getReputation, refreshAllReputation, refreshReputation } from "./reputation.server";
import {
  canRate,
  mentionsClient,
  RATING_MESSAGES,
  RATING_WINDOW_DAYS,
  ratingWindowEnd,
  responsiveness,
  type RatingCriterion,
  type RatingEligibility,
  type Responsiveness,
} from "./reputation-rules";
import type { AnswerInput, RatingInput, ReportInput } from "./ratings.schema";
import { invalidate } from "~/lib/cache.server";
import { AppError, type AppErrorCode } from "~/lib/errors/app-error";

export { RATING_MESSAGES };

const ELIGIBILITY_MESSAGES: Record<Exclude<RatingEligibility, { ok: true }>["reason"], string> = {
  "not-ended": RATING_MESSAGES.notEnded,
  "window-closed": RATING_MESSAGES.windowClosed,
  "already-rated": RATING_MESSAGES.alreadyRated,
  "counterpart-gone": RATING_MESSAGES.counterpartGone,
};

function refuse(message: string, code: AppErrorCode = "conflict"): never {
  throw new AppError(code, message);
}

function ratingNotFound(): never {
  throw new AppError("not-found", RATING_MESSAGES.ratingNotFound);
}

type FileEndRow = { ended_at: Date | string | null; client_names: string[] | null };

async function fileEnd(handle: Db, fileId: string): Promise<{ endedAt: Date | null; clientNames: string[] }> {
  const [r] = await queryRows<FileEndRow>(
    sql`select case f.stage when 'concluded' then f.concluded_at when 'abandoned' then f.abandoned_at end as ended_at,
          array_remove(array[ma.client_name, mb.client_name], null) as client_names
        from collaboration_files f
        left join mandates ma on ma.id = f.mandate_a_id
        left join mandates mb on mb.id = f.mandate_b_id
        where f.id = ${fileId}::uuid`,
    handle,
  );
  return { endedAt: r?.ended_at ? new Date(r.ended_at) : null, clientNames: r?.client_names ?? [] };
}

// ---------------------------------------------------------------------------------------------
// A file's ratings, as one of its members sees them

export type RatingView = {
  id: string;
  scores: Record<RatingCriterion, number>;
  comment: string | null;
  createdAt: string;
  answer: string | null;
  answeredAt: string | null;
  hidden: boolean;
};

export type FileRatings = {
  fileId: string;
  eligibility: RatingEligibility;
  /** The end of the rating window (null while the file runs). */
  windowEndsAt: string | null;
  /** The actor's own rating of the other member, once given. */
  given: (RatingView & { visible: boolean }) | null;
  /** Whether the other member rated the actor (their rating itself shows once visible). */
  counterpartRated: boolean;
  /** The other member's rating of the actor, once visible (double blind). */
  received: RatingView | null;
};

type RatingRow = {
  id: string;
  rater_id: string | null;
  rated_id: string;
  responsiveness: number;
  professionalism: number;
  confidentiality: number;
  comment: string | null;
  created_at: Date | string;
  visible_at: Date | string;
  answer: string | null;
  answered_at: Date | string | null;
  hidden_at: Date | string | null;
};

const iso = (v: Date | string) => new Date(v).toISOString();

function toView(r: RatingRow): RatingView {
  return {
    id: r.id,
    scores: { responsiveness: Number(r.responsiveness), professionalism: Number(r.professionalism), confidentiality: Number(r.confidentiality) },
    comment: r.hidden_at ? null : r.comment,
    createdAt: iso(r.created_at),
    answer: r.hidden_at ? null : r.answer,
    answeredAt: r.answered_at ? iso(r.answered_at) : null,
    hidden: r.hidden_at !== null,
  };
}

export async function getFileRatings(actor: Pick<FileActor, "profileId">, fileId: string, now = new Date()): Promise<FileRatings> {
  const file = await requireFileAccess(db, actor, fileId);
  const { endedAt } = await fileEnd(db, file.id);
  const rows = await queryRows<RatingRow>(
    sql`select id, rater_id, rated_id, responsiveness, professionalism, confidentiality, comment, created_at, visible_at,
          answer, answered_at, hidden_at
        from collaboration_ratings where file_id = ${file.id}::uuid`,
  );
  const givenRow = rows.find((r) => r.rated_id !== actor.profileId) ?? null;
  const receivedRow = rows.find((r) => r.rated_id === actor.profileId) ?? null;
  const visible = (r: RatingRow) => new Date(r.visible_at).getTime() <= now.getTime();
  return {
    fileId: file.id,
    eligibility: canRate({ stage: file.stage, endedAt, now, alreadyRated: givenRow !== null, counterpartPresent: file.counterpartId !== null }),
    windowEndsAt: endedAt ? ratingWindowEnd(endedAt).toISOString() : null,
    given: givenRow ? { ...toView(givenRow), visible: visible(givenRow) } : null,
    counterpartRated: receivedRow !== null,
    received: receivedRow && visible(receivedRow) ? toView(receivedRow) : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Commands

/** The actor rates the other member of a file that ended. */
export async function rateCounterpart(actor: FileActor, fileId: string, input: RatingInput, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    const file = await requireFileAccess(tx, actor, fileId, true);
    const { endedAt, clientNames } = await fileEnd(tx, file.id);
    const [existing] = await queryRows<{ n: number }>(
      sql`select count(*)::int as n from collaboration_ratings where file_id = ${file.id}::uuid and rater_id = ${actor.profileId}::uuid`,
      tx,
    );
    const eligibility = canRate({ stage: file.stage, endedAt, now, alreadyRated: Number(existing?.n ?? 0) > 0, counterpartPresent: file.counterpartId !== null });
    if (!eligibility.ok) refuse(ELIGIBILITY_MESSAGES[eligibility.reason]);
    const comment = input.comment?.trim() || null;
    if (comment && mentionsClient(comment, clientNames)) refuse(RATING_MESSAGES.clientNamed, "invalid");
    const inserted = await queryRows<{ id: string }>(
      sql`insert into collaboration_ratings (file_id, rater_id, rater_name, rated_id, responsiveness, professionalism, confidentiality, comment, visible_at)
          values (${file.id}::uuid, ${actor.profileId}::uuid, ${actorName(actor)}, ${file.counterpartId}::uuid, ${input.responsiveness},
                  ${input.professionalism}, ${input.confidentiality}, ${comment}, ${ratingWindowEnd(endedAt!).toISOString()}::timestamptz)
          on conflict (file_id, rated_id) do nothing returning id`,
      tx,
    );
    if (inserted.length === 0) refuse(RATING_MESSAGES.alreadyRated);
    await completeTask(taskKey("rating_open", file.id), tx, { profileId: actor.profileId });
    // Both members rated: the double blind ends now for both ratings.
    await tx.execute(sql`
      update collaboration_ratings set visible_at = now()
      where file_id = ${file.id}::uuid and visible_at > now()
        and (select count(*) from collaboration_ratings c where c.file_id = ${file.id}::uuid) = 2`);
    await publishDueRatings(tx, file.id);
  });
}

/**
 * The ratings that became visible and whose rated member was not told yet: e-mails them (their
 * preference for file steps allowing), marks them told and refreshes the rated members' figures.
 * Scoped to one file after a rating, or every file for the hourly job.
 */
export async function publishDueRatings(handle: Db = db, fileId: string | null = null): Promise<number> {
  const due = await queryRows<{ id: string; file_id: string; rated_id: string }>(
    sql`update collaboration_ratings set notified_at = now()
        where notified_at is null and visible_at <= now() ${fileId ? sql`and file_id = ${fileId}::uuid` : sql``}
        returning id, file_id, rated_id`,
    handle,
  );
  for (const r of due) {
    await notifyCounterpart(handle, r.rated_id, r.file_id, {
      title: "Une évaluation de votre collaboration est visible",
      intro: "Votre confrère a évalué votre collaboration dans un dossier de rapprochement\u00a0: son évaluation est désormais visible.",
      line: "Vous pouvez la consulter et y répondre une fois, publiquement, depuis l’onglet «\u00a0Évaluation\u00a0» du dossier.",
      kind: "rating-visible",
      dedupeKey: `rating-visible:${r.id}`,
    });
  }
  await refreshReputation([...new Set(due.map((r) => r.rated_id))], handle);
  return due.length;
}

/** The rated member answers a visible rating, once. */
export async function answerRating(actor: Pick<FileActor, "profileId">, ratingId: string, input: AnswerInput): Promise<{ fileId: string }> {
  if (!isUuid(ratingId)) ratingNotFound();
  const [r] = await queryRows<{ file_id: string; answer: string | null }>(
    sql`select file_id, answer from collaboration_ratings
        where id = ${ratingId}::uuid and rated_id = ${actor.profileId}::uuid and visible_at <= now() and hidden_at is null`,
  );
  if (!r) ratingNotFound();
  if (r.answer !== null) refuse(RATING_MESSAGES.alreadyAnswered);
  const updated = await queryRows<{ id: string }>(
    sql`update collaboration_ratings set answer = ${input.answer.trim()}, answered_at = now()
        where id = ${ratingId}::uuid and answer is null returning id`,
  );
  if (updated.length === 0) refuse(RATING_MESSAGES.alreadyAnswered);
  return { fileId: r.file_id };
}

/** At most 10 reports an hour per member (one per rating anyway). */
const REPORT_RATE: RateLimitRule = { limit: 10, windowSeconds: 60 * 60 };

/**
 * A validated member reports a rating they can see (visible, not hidden): the rated member, the
 * rater, or any member reading the profile (then scoped to the profile's member: `ratedId`).
 * Once per member and rating, rate-limited, audited (rating.report, with the reporter's account).
 */
export async function reportRating(
  actor: Pick<FileActor, "profileId">,
  ratingId: string,
  input: ReportInput,
  scope: { ratedId?: string } = {},
): Promise<void> {
  if (!isUuid(ratingId)) ratingNotFound();
  const [r] = await queryRows<{ id: string }>(
    sql`select id from collaboration_ratings where id = ${ratingId}::uuid and visible_at <= now() and hidden_at is null
          ${scope.ratedId ? sql`and rated_id = ${scope.ratedId}::uuid` : sql``}`,
  );
  if (!r) ratingNotFound();
  const limit = await consumeRateLimit(`rating-report:${actor.profileId}`, REPORT_RATE);
  if (!limit.allowed) throw new AppError("rate-limited", RATING_MESSAGES.tooManyReports, { retryAfterSeconds: limit.retryAfter });
  await db.transaction(async (tx) => {
    const inserted = await queryRows<{ id: string }>(
      sql`insert into rating_reports (rating_id, reporter_id, reason) values (${ratingId}::uuid, ${actor.profileId}::uuid, ${input.reason.trim()})
          on conflict (rating_id, reporter_id) do nothing returning id`,
      tx,
    );
    if (inserted.length === 0) refuse(RATING_MESSAGES.alreadyReported);
    // The reason stays in rating_reports (it may quote the comment): the audit row says who and which.
    invalidate("audit_log");
    await tx.execute(sql`
      insert into audit_log (actor_user_id, action, target_type, target_id, details)
      select p.user_id, 'rating.report', 'rating', ${ratingId}, ${JSON.stringify({ reportId: inserted[0].id })}::jsonb
      from profiles p where p.id = ${actor.profileId}::uuid`);
  });
}

// ---------------------------------------------------------------------------------------------
// A member's ratings, as other members see them (profile page): visible, not hidden, without
// the rater's name (which file and which counterpart stay private).

export type ReceivedRating = {
  id: string;
  scores: Record<RatingCriterion, number>;
  comment: string | null;
  createdAt: string;
  answer: string | null;
};

export async function listReceivedRatings(profileId: string, limit = 20): Promise<ReceivedRating[]> {
  if (!isUuid(profileId)) return [];
  const rows = await queryRows<RatingRow>(
    sql`select id, rater_id, rated_id, responsiveness, professionalism, confidentiality, comment, created_at, visible_at,
          answer, answered_at, hidden_at
        from collaboration_ratings
        where rated_id = ${profileId}::uuid and visible_at <= now() and hidden_at is null
        order by visible_at desc limit ${limit}`,
  );
  return rows.map((r) => {
    const v = toView(r);
    return { id: v.id, scores: v.scores, comment: v.comment, createdAt: v.createdAt, answer: v.answer };
  });
}


/** The to-dos « confrère à noter » of files whose rating window has closed: nothing left to do. */
export async function closeLapsedRatingTasks(handle: Db = db): Promise<number> {
  return completeTasksNoLongerDue(
    "rating_open",
    (subject) => sql`exists (select 1 from collaboration_files f where f.id::text = ${subject}
      and coalesce(f.concluded_at, f.abandoned_at, now()) > now() - make_interval(days => ${RATING_WINDOW_DAYS}::int))`,
    handle,
  );
}

/**
 * The hourly job: tells the rated members of the ratings whose window closed, then recomputes
 * every member's figures (the 90-day and 12-month windows move with time).
 */
export function startReputationJob(options: { intervalMs?: number; initialDelayMs?: number } = {}): PeriodicJob {
  return startPeriodicJob({
    name: "reputation refresh",
    intervalMs: options.intervalMs ?? 60 * 60_000,
    initialDelayMs: options.initialDelayMs ?? 60_000,
    run: async () => {
      const told = await publishDueRatings();
      await closeLapsedRatingTasks();
      await refreshAllReputation();
      return told;
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Consent: the average and count on the public profile (default off)

export async function setRatingsConsent(profileId: string, showPublicly: boolean): Promise<void> {
  invalidate("profiles");
  await db.execute(sql`update profiles set show_ratings_publicly = ${showPublicly}, updated_at = now() where id = ${profileId}::uuid`);
}

/**
 * A member's reputation as other members see it: ratings (average, count, the latest comments)
 * and responsiveness over the last 90 days (null below the minimum of data).
 */
export async function getMemberRatings(
  profileId: string,
): Promise<{ average: number | null; count: number; list: ReceivedRating[]; responsiveness: Responsiveness | null }> {
  const [reputation, list] = await Promise.all([getReputation(profileId), listReceivedRatings(profileId)]);
  return { average: reputation?.ratingAverage ?? null, count: reputation?.ratingsCount ?? 0, list, responsiveness: responsiveness(reputation) };
}
