// Collaboration files: the private file of a confirmed connection between two
// mandates, shared by their two members from the introduction to the closing. A file outlives
// its mandates and members (records of a contract are kept): every reference to a mandate or a
// profile is `set null` on delete, and the file keeps the labels it needs to stay readable.
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { user } from "./auth";
import { mandates, messages, profiles } from "./product";

const ts = (name: string) => timestamp(name, { withTimezone: true });

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

export const collaborationStageEnum = pgEnum("collaboration_stage", [
  "introduction",
  "exchanges",
  "documents",
  "offer",
  "protocol",
  "concluded",
  "abandoned",
]);

export const abandonReasonEnum = pgEnum("abandon_reason", ["price", "financing", "client_withdrawal", "other_counterpart", "other"]);

export const amountBandEnum = pgEnum("amount_band", ["lt_500k", "500k_1m", "1m_3m", "3m_10m", "gt_10m"]);

export const feeAgreementStatusEnum = pgEnum("fee_agreement_status", ["pending", "signed", "cancelled"]);

export const collaborationFiles = pgTable(
  "collaboration_files",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    // The human reference, « DR-2026-0042 »: numbered per year without gaps (collaborationFileCounters).
    reference: text("reference").notNull(),
    // The two mandates, ordered (a < b) at creation; the key stays when a mandate is deleted.
    pairKey: text("pair_key").notNull(),
    mandateAId: uuid("mandate_a_id").references(() => mandates.id, { onDelete: "set null" }),
    mandateBId: uuid("mandate_b_id").references(() => mandates.id, { onDelete: "set null" }),
    memberAId: uuid("member_a_id").references(() => profiles.id, { onDelete: "set null" }),
    memberBId: uuid("member_b_id").references(() => profiles.id, { onDelete: "set null" }),
    // What each side's mandate was ("Mandat acquéreur · Industrie · 69"), kept for the record.
    mandateALabel: text("mandate_a_label").notNull(),
    mandateBLabel: text("mandate_b_label").notNull(),
    stage: collaborationStageEnum("stage").notNull().default("introduction"),
    // "Conclu" needs both members: one proposes (date, optional band), the other confirms.
    closingProposedBy: uuid("closing_proposed_by").references(() => profiles.id, { onDelete: "set null" }),
    closingProposedAt: ts("closing_proposed_at"),
    closingDate: date("closing_date", { mode: "string" }),
    amountBand: amountBandEnum("amount_band"),
    concludedAt: ts("concluded_at"),
    abandonReason: abandonReasonEnum("abandon_reason"),
    abandonText: text("abandon_text"),
    abandonedAt: ts("abandoned_at"),
    // Last time each side opened the file's messages (unread marks).
    memberAReadAt: ts("member_a_read_at"),
    memberBReadAt: ts("member_b_read_at"),
    lastActivityAt: ts("last_activity_at").notNull().defaultNow(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    unique("collaboration_files_pair_key").on(t.pairKey),
    unique("collaboration_files_reference_key").on(t.reference),
    index("collaboration_files_member_a_idx").on(t.memberAId, t.lastActivityAt.desc()),
    index("collaboration_files_member_b_idx").on(t.memberBId, t.lastActivityAt.desc()),
    check("collaboration_files_members_check", sql`${t.memberAId} is null or ${t.memberBId} is null or ${t.memberAId} <> ${t.memberBId}`),
  ],
);

// The last number given to a file each year (Paris time): the row is taken in the transaction that
// creates the file, so the numbers of a year have no gaps.
export const collaborationFileCounters = pgTable(
  "collaboration_file_counters",
  {
    year: integer("year").primaryKey(),
    lastNumber: integer("last_number").notNull(),
  },
  (t) => [check("collaboration_file_counters_last_number_check", sql`${t.lastNumber} >= 0`)],
);

// The file's timeline: the introduction log copied at creation, then every step of the file.
export const collaborationEvents = pgTable(
  "collaboration_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    fileId: uuid("file_id")
      .notNull()
      .references(() => collaborationFiles.id, { onDelete: "cascade" }),
    actorProfileId: uuid("actor_profile_id").references(() => profiles.id, { onDelete: "set null" }),
    // Name of the actor when the event was written, shown once the account is gone.
    actorName: text("actor_name"),
    kind: text("kind").notNull(),
    details: jsonb("details").$type<Record<string, unknown>>(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("collaboration_events_file_idx").on(t.fileId, t.createdAt)],
);

export const collaborationMessages = pgTable(
  "collaboration_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    fileId: uuid("file_id")
      .notNull()
      .references(() => collaborationFiles.id, { onDelete: "cascade" }),
    senderProfileId: uuid("sender_profile_id").references(() => profiles.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("collaboration_messages_file_idx").on(t.fileId, t.createdAt)],
);

export const collaborationDocuments = pgTable(
  "collaboration_documents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    fileId: uuid("file_id")
      .notNull()
      .references(() => collaborationFiles.id, { onDelete: "cascade" }),
    uploaderProfileId: uuid("uploader_profile_id").references(() => profiles.id, { onDelete: "set null" }),
    // A document shared by an invited participant; null when a founding member shared it.
    uploaderParticipantId: uuid("uploader_participant_id").references(() => collaborationParticipants.id, { onDelete: "set null" }),
    // Its folder; null is the file's general folder, seen by both sides.
    folderId: uuid("folder_id").references(() => collaborationFolders.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    contentType: text("content_type").notNull(),
    sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
    sha256: text("sha256").notNull(),
    storageKey: text("storage_key").notNull(),
    withdrawnAt: ts("withdrawn_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
    // Versions of one logical document: the first version's id (null on the first version itself),
    // its number, and when a later version replaced it (earlier versions stay listed and downloadable).
    lineageId: uuid("lineage_id").references((): AnyPgColumn => collaborationDocuments.id, { onDelete: "cascade" }),
    version: integer("version").notNull().default(1),
    supersededAt: ts("superseded_at"),
  },
  (t) => [
    index("collaboration_documents_file_idx").on(t.fileId, t.createdAt.desc()),
    index("collaboration_documents_lineage_idx").on(t.lineageId),
  ],
);

export const documentAccessLog = pgTable(
  "document_access_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    documentId: uuid("document_id")
      .notNull()
      .references(() => collaborationDocuments.id, { onDelete: "cascade" }),
    viewerProfileId: uuid("viewer_profile_id").references(() => profiles.id, { onDelete: "set null" }),
    viewerName: text("viewer_name"),
    action: text("action").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("document_access_log_document_idx").on(t.documentId, t.createdAt.desc())],
);

// Convention de partage d'honoraires: each version is a frozen PDF; a new version cancels the
// unsigned previous one; once both members signed it can no longer change.
export const feeAgreements = pgTable(
  "fee_agreements",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    fileId: uuid("file_id")
      .notNull()
      .references(() => collaborationFiles.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    status: feeAgreementStatusEnum("status").notNull().default("pending"),
    terms: jsonb("terms").$type<Record<string, unknown>>().notNull(),
    createdBy: uuid("created_by").references(() => profiles.id, { onDelete: "set null" }),
    // The document both members sign (its SHA-256 is what each signature covers).
    documentKey: text("document_key").notNull(),
    documentSha256: text("document_sha256").notNull(),
    // The signed PDF with its certificate page, once both signed.
    signedKey: text("signed_key"),
    signedSha256: text("signed_sha256"),
    signedAt: ts("signed_at"),
    cancelledAt: ts("cancelled_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [unique("fee_agreements_file_version_key").on(t.fileId, t.version)],
);

export const feeAgreementSignatures = pgTable(
  "fee_agreement_signatures",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    agreementId: uuid("agreement_id")
      .notNull()
      .references(() => feeAgreements.id, { onDelete: "cascade" }),
    profileId: uuid("profile_id").references(() => profiles.id, { onDelete: "set null" }),
    signerName: text("signer_name").notNull(),
    documentSha256: text("document_sha256").notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    method: text("method").notNull(),
    signedAt: ts("signed_at").notNull().defaultNow(),
  },
  (t) => [unique("fee_agreement_signatures_signer_key").on(t.agreementId, t.profileId)],
);

// Objects of the database storage driver (PostgreSQL mode): every instance reads the same bytes.
export const storedObjects = pgTable("stored_objects", {
  key: text("key").primaryKey(),
  contentType: text("content_type").notNull(),
  bytes: bytea("bytes").notNull(),
  sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
});

// One read state for every message a member receives: a row says
// that this member read this message, whether it came through the inbox (`messages`) or a
// file's thread (`collaboration_messages`); the « Messages » view and the file page read and
// write only this table. Exactly one of the two message columns is set.
export const messageReads = pgTable(
  "message_reads",
  {
    profileId: uuid("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    messageId: uuid("message_id").references(() => messages.id, { onDelete: "cascade" }),
    fileMessageId: uuid("file_message_id").references(() => collaborationMessages.id, { onDelete: "cascade" }),
    readAt: ts("read_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("message_reads_message_key").on(t.messageId, t.profileId),
    uniqueIndex("message_reads_file_message_key").on(t.fileMessageId, t.profileId),
    check("message_reads_one_message_check", sql`num_nonnulls(${t.messageId}, ${t.fileMessageId}) = 1`),
  ],
);

// The documents a person has opened, a row each, as message_reads does for messages: a document
// (a version) with no row for its reader is « Nouveau » on their lists. Keyed by the user, since a
// guest participant has no profile.
export const documentReads = pgTable(
  "document_reads",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    documentId: uuid("document_id")
      .notNull()
      .references(() => collaborationDocuments.id, { onDelete: "cascade" }),
    readAt: ts("read_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("document_reads_document_key").on(t.documentId, t.userId)],
);

// Participants of a file beyond its two founding members: invited by
// e-mail with a role and a side; a member joins with their profile, anyone else as a guest account.
export const collaborationParticipants = pgTable(
  "collaboration_participants",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    fileId: uuid("file_id")
      .notNull()
      .references(() => collaborationFiles.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role").notNull(),
    side: text("side").notNull(),
    status: text("status").notNull().default("invited"),
    // SHA-256 of the invitation link's secret; the secret itself is only in the e-mail.
    tokenHash: text("token_hash").notNull(),
    expiresAt: ts("expires_at").notNull(),
    invitedBy: uuid("invited_by").references(() => profiles.id, { onDelete: "set null" }),
    invitedByName: text("invited_by_name").notNull(),
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    profileId: uuid("profile_id").references(() => profiles.id, { onDelete: "set null" }),
    isGuest: boolean("is_guest").notNull().default(false),
    firstName: text("first_name"),
    lastName: text("last_name"),
    company: text("company"),
    canView: boolean("can_view").notNull().default(true),
    canDownload: boolean("can_download").notNull().default(false),
    canUpload: boolean("can_upload").notNull().default(false),
    acceptedAt: ts("accepted_at"),
    approvedAt: ts("approved_at"),
    approvedBy: uuid("approved_by").references(() => profiles.id, { onDelete: "set null" }),
    undertakingSignedAt: ts("undertaking_signed_at"),
    endedAt: ts("ended_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    unique("collaboration_participants_token_key").on(t.tokenHash),
    index("collaboration_participants_file_idx").on(t.fileId, t.createdAt),
    index("collaboration_participants_user_idx").on(t.userId),
    // One open invitation or participation per address and file.
    uniqueIndex("collaboration_participants_open_email_key")
      .on(t.fileId, sql`lower(${t.email})`)
      .where(sql`${t.status} in ('invited', 'awaiting_approval', 'active')`),
    check("collaboration_participants_role_check", sql`${t.role} in ('expert_comptable', 'avocat', 'notaire', 'banque', 'conseil', 'autre')`),
    check("collaboration_participants_side_check", sql`${t.side} in ('cedant', 'acquereur', 'commun')`),
    check("collaboration_participants_status_check", sql`${t.status} in ('invited', 'awaiting_approval', 'active', 'withdrawn', 'removed')`),
  ],
);

// Folders of a file's documents, each seen by both sides or by one side only.
export const collaborationFolders = pgTable(
  "collaboration_folders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    fileId: uuid("file_id")
      .notNull()
      .references(() => collaborationFiles.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    visibility: text("visibility").notNull().default("both"),
    createdBy: uuid("created_by").references(() => profiles.id, { onDelete: "set null" }),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    unique("collaboration_folders_name_key").on(t.fileId, t.name),
    check("collaboration_folders_visibility_check", sql`${t.visibility} in ('both', 'cedant', 'acquereur')`),
  ],
);

// Accounts created through an invitation: they reach only the files they were
// admitted to, never the member space.
export const guestAccounts = pgTable("guest_accounts", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  createdAt: ts("created_at").notNull().defaultNow(),
});
