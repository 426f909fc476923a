// Due-diligence request list and Q&A of a collaboration file: the items one side
// asks the other to provide, the file's documents that answer them, and questions on an item or
// a document, each visible to one side or to both.
import { sql } from "drizzle-orm";
import { check, date, index, integer, pgEnum, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { collaborationDocuments, collaborationFiles, collaborationParticipants } from "./collaboration";
import { profiles } from "./product";

const ts = (name: string) => timestamp(name, { withTimezone: true });

export const ddCategoryEnum = pgEnum("dd_category", ["juridique", "social", "fiscal", "financier", "immobilier", "contrats"]);
export const ddStatusEnum = pgEnum("dd_status", ["requested", "in_progress", "provided", "validated", "not_applicable"]);
export const ddSideEnum = pgEnum("dd_side", ["cedant", "acquereur", "commun"]);
export const ddQuestionStatusEnum = pgEnum("dd_question_status", ["open", "answered", "closed"]);

export const dueDiligenceRequests = pgTable(
  "due_diligence_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    fileId: uuid("file_id")
      .notNull()
      .references(() => collaborationFiles.id, { onDelete: "cascade" }),
    category: ddCategoryEnum("category").notNull(),
    title: text("title").notNull(),
    position: integer("position").notNull(),
    status: ddStatusEnum("status").notNull().default("requested"),
    ownerProfileId: uuid("owner_profile_id").references(() => profiles.id, { onDelete: "set null" }),
    // Or a participant of the file (a guest has no profile); at most one owner.
    ownerParticipantId: uuid("owner_participant_id").references(() => collaborationParticipants.id, { onDelete: "set null" }),
    dueDate: date("due_date", { mode: "string" }),
    createdBy: uuid("created_by").references(() => profiles.id, { onDelete: "set null" }),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("due_diligence_requests_file_idx").on(t.fileId, t.category, t.position),
    check("due_diligence_requests_one_owner_check", sql`num_nonnulls(${t.ownerProfileId}, ${t.ownerParticipantId}) <= 1`),
  ],
);

export const dueDiligenceRequestDocuments = pgTable(
  "due_diligence_request_documents",
  {
    requestId: uuid("request_id")
      .notNull()
      .references(() => dueDiligenceRequests.id, { onDelete: "cascade" }),
    documentId: uuid("document_id")
      .notNull()
      .references(() => collaborationDocuments.id, { onDelete: "cascade" }),
    linkedBy: uuid("linked_by").references(() => profiles.id, { onDelete: "set null" }),
    // A guest participant has no profile: their participant row.
    linkedByParticipant: uuid("linked_by_participant").references(() => collaborationParticipants.id, { onDelete: "set null" }),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.requestId, t.documentId] }), index("due_diligence_request_documents_document_idx").on(t.documentId)],
);

export const dueDiligenceQuestions = pgTable(
  "due_diligence_questions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    fileId: uuid("file_id")
      .notNull()
      .references(() => collaborationFiles.id, { onDelete: "cascade" }),
    requestId: uuid("request_id").references(() => dueDiligenceRequests.id, { onDelete: "cascade" }),
    documentId: uuid("document_id").references(() => collaborationDocuments.id, { onDelete: "cascade" }),
    visibility: ddSideEnum("visibility").notNull(),
    body: text("body").notNull(),
    askedBy: uuid("asked_by").references(() => profiles.id, { onDelete: "set null" }),
    // A guest participant has no profile: the question and answer keep their participant row.
    askedByParticipant: uuid("asked_by_participant").references(() => collaborationParticipants.id, { onDelete: "set null" }),
    askerName: text("asker_name").notNull(),
    askerSide: ddSideEnum("asker_side").notNull(),
    answer: text("answer"),
    answeredBy: uuid("answered_by").references(() => profiles.id, { onDelete: "set null" }),
    answeredByParticipant: uuid("answered_by_participant").references(() => collaborationParticipants.id, { onDelete: "set null" }),
    answererName: text("answerer_name"),
    answeredAt: ts("answered_at"),
    status: ddQuestionStatusEnum("status").notNull().default("open"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("due_diligence_questions_file_idx").on(t.fileId, t.createdAt),
    index("due_diligence_questions_request_idx").on(t.requestId),
    index("due_diligence_questions_document_idx").on(t.documentId),
    check("due_diligence_questions_target_check", sql`${t.requestId} is not null or ${t.documentId} is not null`),
  ],
);
