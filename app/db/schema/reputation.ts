// Ratings after a collaboration and the reputation computed from behaviour.
// A rating belongs to a file that ended (concluded or abandoned): each member rates the other
// once; both ratings stay hidden until both are in or the rating window (14 days after the end)
// closes (double blind): `visible_at` holds that moment. The reputation of each member is a row
// of figures refreshed in SQL (job + events), read by the directories with one join.
import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, real, smallint, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { user } from "./auth";
import { collaborationFiles } from "./collaboration";
import { profiles } from "./product";

const ts = (name: string) => timestamp(name, { withTimezone: true });

export const collaborationRatings = pgTable(
  "collaboration_ratings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    fileId: uuid("file_id")
      .notNull()
      .references(() => collaborationFiles.id, { onDelete: "cascade" }),
    // The rater's rating stays when their account is gone (the rated member earned it).
    raterId: uuid("rater_id").references(() => profiles.id, { onDelete: "set null" }),
    raterName: text("rater_name").notNull(),
    ratedId: uuid("rated_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    responsiveness: smallint("responsiveness").notNull(),
    professionalism: smallint("professionalism").notNull(),
    confidentiality: smallint("confidentiality").notNull(),
    comment: text("comment"),
    createdAt: ts("created_at").notNull().defaultNow(),
    /** Double blind: when both members rated, or the end of the rating window. */
    visibleAt: ts("visible_at").notNull(),
    /** The e-mail telling the rated member that the rating is visible went out. */
    notifiedAt: ts("notified_at"),
    answer: text("answer"),
    answeredAt: ts("answered_at"),
    // Moderation (admins): a hidden rating counts nowhere and shows nowhere but to admins.
    hiddenAt: ts("hidden_at"),
    hiddenBy: text("hidden_by").references(() => user.id, { onDelete: "set null" }),
    hiddenReason: text("hidden_reason"),
  },
  (t) => [
    unique("collaboration_ratings_file_rated_key").on(t.fileId, t.ratedId),
    index("collaboration_ratings_rated_idx").on(t.ratedId, t.visibleAt.desc()),
    index("collaboration_ratings_pending_mail_idx").on(t.visibleAt).where(sql`${t.notifiedAt} is null`),
    check("collaboration_ratings_scores", sql`${t.responsiveness} between 1 and 5 and ${t.professionalism} between 1 and 5 and ${t.confidentiality} between 1 and 5`),
    check("collaboration_ratings_comment_length", sql`${t.comment} is null or char_length(${t.comment}) <= 1000`),
    check("collaboration_ratings_answer_length", sql`${t.answer} is null or char_length(${t.answer}) <= 1000`),
    check("collaboration_ratings_hidden_reason", sql`(${t.hiddenAt} is null) = (${t.hiddenReason} is null)`),
  ],
);

/** A member's report of a rating; admins close it by hiding the rating or keeping it. */
export const ratingReports = pgTable(
  "rating_reports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ratingId: uuid("rating_id")
      .notNull()
      .references(() => collaborationRatings.id, { onDelete: "cascade" }),
    reporterId: uuid("reporter_id").references(() => profiles.id, { onDelete: "set null" }),
    reason: text("reason").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    resolvedAt: ts("resolved_at"),
    resolvedBy: text("resolved_by").references(() => user.id, { onDelete: "set null" }),
    outcome: text("outcome"),
  },
  (t) => [
    unique("rating_reports_rating_reporter_key").on(t.ratingId, t.reporterId),
    index("rating_reports_open_idx").on(t.createdAt).where(sql`${t.resolvedAt} is null`),
    check("rating_reports_reason_length", sql`char_length(${t.reason}) between 1 and 1000`),
    check("rating_reports_outcome", sql`${t.outcome} is null or ${t.outcome} in ('hidden', 'kept')`),
  ],
);

/**
 * The reputation figures of a member (one row per member who has any), refreshed by
 * features/trust/reputation.server.ts. Rows only change when a figure changes, so that the public
 * page cache is dropped only then (row trigger, migration).
 */
export const memberReputation = pgTable(
  "member_reputation",
  {
    profileId: uuid("profile_id")
      .primaryKey()
      .references(() => profiles.id, { onDelete: "cascade" }),
    // Responsiveness, last 90 days: match requests and internal messages received, and how many
    // of them were answered within 7 days; the median time to answer, in hours.
    requestsReceived: integer("requests_received").notNull().default(0),
    requestsAnswered: integer("requests_answered").notNull().default(0),
    messagesReceived: integer("messages_received").notNull().default(0),
    messagesAnswered: integer("messages_answered").notNull().default(0),
    medianResponseHours: real("median_response_hours"),
    // Collaboration files: all time, and concluded in the last 12 months.
    filesTotal: integer("files_total").notNull().default(0),
    filesConcluded: integer("files_concluded").notNull().default(0),
    filesAbandoned: integer("files_abandoned").notNull().default(0),
    filesWithUndertaking: integer("files_with_undertaking").notNull().default(0),
    concludedLast12Months: integer("concluded_last_12_months").notNull().default(0),
    /** Share of members (with a concluded file in 12 months) who concluded strictly more. */
    concludedRankShare: real("concluded_rank_share"),
    // Visible ratings received (not hidden).
    ratingsCount: integer("ratings_count").notNull().default(0),
    ratingAverage: real("rating_average"),
    responsivenessAverage: real("responsiveness_average"),
    professionalismAverage: real("professionalism_average"),
    confidentialityAverage: real("confidentiality_average"),
    // Mediations decided against the member (upheld), and those of a confidentiality breach.
    upheldMediations: integer("upheld_mediations").notNull().default(0),
    confidentialityBreaches: integer("confidentiality_breaches").notNull().default(0),
    refreshedAt: ts("refreshed_at").notNull().defaultNow(),
  },
  (t) => [index("member_reputation_concluded_idx").on(t.concludedLast12Months).where(sql`${t.concludedLast12Months} > 0`)],
);
