// Mediation: either member of a collaboration file asks the team to mediate a
// dispute. The team moves it from "ouverte" to "en cours", exchanges dated messages with both
// members and writes a decision ("résolue" or "classée"). A decision may uphold a complaint
// against one member, of a given kind (confidentiality breach or other): the reputation rules
// count those (app/features/mediation/mediation.server.ts upheldMediationCounts).
import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { user } from "./auth";
import { collaborationFiles } from "./collaboration";
import { profiles } from "./product";

const ts = (name: string) => timestamp(name, { withTimezone: true });

export const mediationStatusEnum = pgEnum("mediation_status", ["open", "in_progress", "resolved", "dismissed"]);

export const mediations = pgTable(
  "mediations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    fileId: uuid("file_id")
      .notNull()
      .references(() => collaborationFiles.id, { onDelete: "cascade" }),
    openedBy: uuid("opened_by").references(() => profiles.id, { onDelete: "set null" }),
    openedByName: text("opened_by_name").notNull(),
    // The other member of the file, whom the request concerns.
    respondentId: uuid("respondent_id").references(() => profiles.id, { onDelete: "set null" }),
    respondentName: text("respondent_name").notNull(),
    subject: text("subject").notNull(),
    facts: text("facts").notNull(),
    status: mediationStatusEnum("status").notNull().default("open"),
    decision: text("decision"),
    decidedBy: text("decided_by").references(() => user.id, { onDelete: "set null" }),
    decidedAt: ts("decided_at"),
    // The outcome: a complaint upheld ("fondée") against one of the two members, and its kind.
    upheld: boolean("upheld").notNull().default(false),
    upheldAgainstId: uuid("upheld_against_id").references(() => profiles.id, { onDelete: "set null" }),
    breachKind: text("breach_kind"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("mediations_file_idx").on(t.fileId, t.createdAt.desc()),
    index("mediations_status_idx").on(t.status, t.createdAt.desc()),
    index("mediations_upheld_against_idx").on(t.upheldAgainstId).where(sql`${t.upheld}`),
    // One mediation in progress per file at a time.
    uniqueIndex("mediations_one_active_per_file").on(t.fileId).where(sql`${t.status} in ('open', 'in_progress')`),
    check("mediations_breach_kind", sql`${t.breachKind} is null or ${t.breachKind} in ('confidentiality', 'other')`),
    check("mediations_decision", sql`(${t.status} in ('resolved', 'dismissed')) = (${t.decision} is not null)`),
    check("mediations_upheld", sql`not ${t.upheld} or (${t.status} = 'resolved' and ${t.breachKind} is not null)`),
  ],
);

/** The dated exchange between the team and both members. */
export const mediationMessages = pgTable(
  "mediation_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    mediationId: uuid("mediation_id")
      .notNull()
      .references(() => mediations.id, { onDelete: "cascade" }),
    authorRole: text("author_role").notNull(),
    authorProfileId: uuid("author_profile_id").references(() => profiles.id, { onDelete: "set null" }),
    authorUserId: text("author_user_id").references(() => user.id, { onDelete: "set null" }),
    authorName: text("author_name").notNull(),
    body: text("body").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("mediation_messages_mediation_idx").on(t.mediationId, t.createdAt), check("mediation_messages_role", sql`${t.authorRole} in ('member', 'admin')`)],
);

/** Documents joined to the request (checked and stored like the file's shared documents). */
export const mediationAttachments = pgTable(
  "mediation_attachments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    mediationId: uuid("mediation_id")
      .notNull()
      .references(() => mediations.id, { onDelete: "cascade" }),
    uploaderProfileId: uuid("uploader_profile_id").references(() => profiles.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    contentType: text("content_type").notNull(),
    sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
    sha256: text("sha256").notNull(),
    storageKey: text("storage_key").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("mediation_attachments_mediation_idx").on(t.mediationId)],
);
