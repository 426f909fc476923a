// What the due-diligence list shows: the list, its progress, one request with its questions, and
// the rows of its export. Every function takes the acting member and goes through
// requireDueDiligenceAccess (a 404 for anyone outside the file); the commands are in
// due-diligence.server.ts.
import { sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { OPERATION_TYPES, type OperationType } from "~/features/collaboration/agreement-rules";
import { fileConflict, requireFileAccess, type FileActor } from "~/features/collaboration/file-access.server";
import { folderSeenByFounder } from "~/features/collaboration/document-list.server";
import { parisToday } from "~/features/mandates/mandate-rules";
import { requireDueDiligenceAccess, type DdAccess } from "./access.server";
import { DD_ORDER, listCounts, OWNER_NAME } from "./list-page.server";
import {
  canAnswerItem,
  canAnswerQuestion,
  canCloseQuestion,
  canEditList,
  DD_MESSAGES,
  isOverdue,
  listProgress,
  nextStatuses,
  visibilitiesFor,
  type DdCategory,
  type DdProgress,
  type DdQuestionStatus,
  type DdRole,
  type DdSide,
  type DdStatus,
} from "./due-diligence-rules";
import { AppError, type AppErrorCode } from "~/lib/errors/app-error";

export function refuse(message: string, code: AppErrorCode = "conflict"): never {
  fileConflict(message, code);
}

export function itemNotFound(): never {
  throw new AppError("not-found", DD_MESSAGES.notFound);
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// ---------------------------------------------------------------------------------------------
// Reading

type ItemRow = {
  id: string;
  category: DdCategory;
  title: string;
  position: number;
  status: DdStatus;
  owner_profile_id: string | null;
  owner_participant_id: string | null;
  owner_name: string | null;
  due_date: string | null;
  documents: number | string;
  open_questions: number | string;
};

export type DdItemSummary = {
  id: string;
  category: DdCategory;
  title: string;
  status: DdStatus;
  ownerName: string | null;
  dueDate: string | null;
  overdue: boolean;
  documents: number;
  openQuestions: number;
};

/** The items of a file, with their counts of documents and of open questions the viewer sees. */
async function itemRows(handle: Db, fileId: string, side: DdSide, requestId?: string, window?: { limit: number; offset: number }): Promise<ItemRow[]> {
  return queryRows<ItemRow>(
    sql`select r.id, r.category::text as category, r.title, r.position, r.status::text as status, r.owner_profile_id, r.owner_participant_id,
        ${OWNER_NAME} as owner_name, r.due_date::text as due_date,
        (select count(*) from due_diligence_request_documents l join collaboration_documents d on d.id = l.document_id
          where l.request_id = r.id and d.withdrawn_at is null) as documents,
        (select count(*) from due_diligence_questions q where q.request_id = r.id and q.status = 'open'
          and (q.visibility = 'commun' or q.visibility = ${side}::dd_side)) as open_questions
      from due_diligence_requests r where r.file_id = ${fileId}::uuid ${requestId ? sql`and r.id = ${requestId}::uuid` : sql``}
      order by ${DD_ORDER} ${window ? sql`limit ${window.limit} offset ${window.offset}` : sql``}`,
    handle,
  );
}

function toSummary(r: ItemRow, today: string): DdItemSummary {
  return {
    id: r.id,
    category: r.category,
    title: r.title,
    status: r.status,
    ownerName: r.owner_name,
    dueDate: r.due_date,
    overdue: isOverdue({ status: r.status, dueDate: r.due_date }, today),
    documents: Number(r.documents),
    openQuestions: Number(r.open_questions),
  };
}

/** The operation type the file points to: its fee agreement, else the seller's adviser's college. */
async function suggestedTemplate(fileId: string): Promise<OperationType> {
  const [row] = await queryRows<{ op: string | null; college: string | null }>(
    sql`select (select a.terms->>'operationType' from fee_agreements a where a.file_id = f.id and a.status <> 'cancelled' order by a.version desc limit 1) as op,
        (select p.college::text from mandates m join profiles p on p.id = m.profile_id
          where m.id in (f.mandate_a_id, f.mandate_b_id) and m.mandate_type = 'seller' limit 1) as college
      from collaboration_files f where f.id = ${fileId}::uuid`,
  );
  if (row?.op && (OPERATION_TYPES as readonly string[]).includes(row.op)) return row.op as OperationType;
  return row?.college === "transmission_commerces" ? "fonds_de_commerce" : "titres";
}

export type DdListPage = {
  fileId: string;
  reference: string;
  closed: boolean;
  side: DdSide;
  canEdit: boolean;
  suggestedTemplate: OperationType;
  progress: DdProgress;
  /** One page (DD_PAGE_SIZE) of the list, in its order. */
  items: DdItemSummary[];
  page: number;
  pageCount: number;
  total: number;
  /** Items per category over the whole list. */
  byCategory: Partial<Record<DdCategory, number>>;
};

/** The list page: one page of items grouped by category, the whole list's progress, what the actor may do. */
export async function getDueDiligenceList(actor: Pick<FileActor, "profileId">, fileId: string, page = 1): Promise<DdListPage> {
  const access = await requireDueDiligenceAccess(db, actor, fileId);
  const counts = await listCounts(db, access.file.id, page);
  const rows = counts.window.total ? await itemRows(db, access.file.id, access.actor.side, undefined, counts.window) : [];
  const today = parisToday();
  return {
    fileId: access.file.id,
    reference: access.file.reference,
    closed: access.closed,
    side: access.actor.side,
    canEdit: canEditList(access.actor, access.closed),
    suggestedTemplate: rows.length ? "titres" : await suggestedTemplate(access.file.id),
    progress: counts.progress ?? listProgress([]),
    items: rows.map((r) => toSummary(r, today)),
    page: counts.window.page,
    pageCount: counts.window.pageCount,
    total: counts.window.total,
    byCategory: counts.byCategory,
  };
}

/**
 * The progress on the file's overview (null while the file has no list). The counts are the same
 * for every side: the file's access (read once per page request) is the check, no side is needed.
 */
export async function getDueDiligenceProgress(actor: Pick<FileActor, "profileId">, fileId: string): Promise<DdProgress | null> {
  const file = await requireFileAccess(db, actor, fileId);
  const rows = await queryRows<{ status: DdStatus }>(
    sql`select status::text as status from due_diligence_requests where file_id = ${file.id}::uuid`,
  );
  return rows.length ? listProgress(rows.map((r) => r.status)) : null;
}

export type DdQuestionView = {
  id: string;
  on: { kind: "item" } | { kind: "document"; name: string };
  visibility: DdSide;
  body: string;
  askerName: string;
  askedByMe: boolean;
  askedAt: string;
  answer: string | null;
  answererName: string | null;
  answeredAt: string | null;
  status: DdQuestionStatus;
  canAnswer: boolean;
  canClose: boolean;
};

export type DdItemPage = {
  fileId: string;
  closed: boolean;
  side: DdSide;
  canEdit: boolean;
  canAnswer: boolean;
  item: DdItemSummary & { ownerId: string | null };
  statuses: DdStatus[];
  visibilities: DdSide[];
  /** The owner choice: whom the request may be given to (its current owner kept even when no longer admitted). */
  owners: { id: string; name: string; kind: "founder" | "participant"; side: DdSide; role: DdRole }[];
  documents: { id: string; name: string; withdrawn: boolean }[];
  /** The file's documents not linked yet (the link form's choices). */
  linkable: { id: string; name: string }[];
  questions: DdQuestionView[];
};

type ItemAccess = { access: DdAccess; row: ItemRow };

function ownerChoices(access: DdAccess, row: ItemRow): DdItemPage["owners"] {
  const choices = access.owners.map((o) => ({ id: o.id, name: o.name, kind: o.kind, side: o.side, role: o.role }));
  const current = row.owner_profile_id ?? row.owner_participant_id;
  if (current && !choices.some((c) => c.id === current)) {
    choices.push({ id: current, name: row.owner_name ?? "Ancien responsable", kind: row.owner_profile_id ? "founder" : "participant", side: "commun", role: "autre" });
  }
  return choices;
}

export async function requireItem(handle: Db, access: DdAccess, requestId: string): Promise<ItemRow> {
  if (!UUID.test(requestId)) itemNotFound();
  const [row] = await itemRows(handle, access.file.id, access.actor.side, requestId);
  return row ?? itemNotFound();
}

export async function loadItem(handle: Db, actor: Pick<FileActor, "profileId">, fileId: string, requestId: string, lock = false): Promise<ItemAccess> {
  const access = await requireDueDiligenceAccess(handle, actor, fileId, lock);
  return { access, row: await requireItem(handle, access, requestId) };
}

type QuestionRow = {
  id: string;
  request_id: string | null;
  document_id: string | null;
  document_name: string | null;
  visibility: DdSide;
  body: string;
  asked_by: string | null;
  asker_name: string;
  answer: string | null;
  answerer_name: string | null;
  answered_at: Date | string | null;
  status: DdQuestionStatus;
  created_at: Date | string;
};

const iso = (v: Date | string) => new Date(v).toISOString();

/** One item with its documents and the questions the actor's side sees (on it or its documents). */
export async function getDueDiligenceItem(actor: Pick<FileActor, "profileId">, fileId: string, requestId: string): Promise<DdItemPage> {
  const { access, row } = await loadItem(db, actor, fileId, requestId);
  const docs = await queryRows<{ id: string; name: string; withdrawn_at: Date | null; linked: boolean }>(
    sql`select d.id, d.name, d.withdrawn_at,
        exists (select 1 from due_diligence_request_documents l where l.request_id = ${row.id}::uuid and l.document_id = d.id) as linked
      from collaboration_documents d left join collaboration_folders fo on fo.id = d.folder_id
      where d.file_id = ${access.file.id}::uuid and ${folderSeenByFounder(actor.profileId)} order by d.created_at desc, d.id`,
  );
  const linkedIds = docs.filter((d) => d.linked).map((d) => d.id);
  const questions = await queryRows<QuestionRow>(
    sql`select q.id, q.request_id, q.document_id, d.name as document_name, q.visibility::text as visibility, q.body, q.asked_by, q.asker_name,
        q.answer, q.answerer_name, q.answered_at, q.status::text as status, q.created_at
      from due_diligence_questions q left join collaboration_documents d on d.id = q.document_id
      where q.file_id = ${access.file.id}::uuid
        and (q.request_id = ${row.id}::uuid ${linkedIds.length ? sql`or q.document_id in (${sql.join(linkedIds.map((id) => sql`${id}::uuid`), sql`, `)})` : sql``})
        and (q.visibility = 'commun' or q.visibility = ${access.actor.side}::dd_side)
      order by q.created_at, q.id`,
  );
  const today = parisToday();
  return {
    fileId: access.file.id,
    closed: access.closed,
    side: access.actor.side,
    canEdit: canEditList(access.actor, access.closed),
    canAnswer: canAnswerItem(access.actor, access.closed),
    item: { ...toSummary(row, today), ownerId: row.owner_profile_id ?? row.owner_participant_id },
    statuses: nextStatuses(access.actor, { status: row.status, documents: Number(row.documents) }, access.closed),
    visibilities: visibilitiesFor(access.actor.side),
    owners: ownerChoices(access, row),
    documents: docs.filter((d) => d.linked).map((d) => ({ id: d.id, name: d.name, withdrawn: d.withdrawn_at !== null })),
    linkable: docs.filter((d) => !d.linked && !d.withdrawn_at).map((d) => ({ id: d.id, name: d.name })),
    questions: questions.map((q) => {
      const rule = { askedBy: q.asked_by, visibility: q.visibility, status: q.status };
      return {
        id: q.id,
        on: q.document_id ? { kind: "document" as const, name: q.document_name ?? "Document" } : { kind: "item" as const },
        visibility: q.visibility,
        body: q.body,
        askerName: q.asker_name,
        askedByMe: q.asked_by === actor.profileId,
        askedAt: iso(q.created_at),
        answer: q.answer,
        answererName: q.answerer_name,
        answeredAt: q.answered_at ? iso(q.answered_at) : null,
        status: q.status,
        canAnswer: canAnswerQuestion(access.actor, rule, access.closed),
        canClose: canCloseQuestion(access.actor, rule, access.closed),
      };
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// Export

export type DdExportRow = {
  category: DdCategory;
  title: string;
  status: DdStatus;
  ownerName: string | null;
  dueDate: string | null;
  documents: string[];
  openQuestions: number;
};

/** What the XLSX and PDF exports list: the items with their documents' names. */
export async function getDueDiligenceExport(
  actor: Pick<FileActor, "profileId">,
  fileId: string,
): Promise<{ reference: string; side: DdSide; progress: DdProgress; rows: DdExportRow[] }> {
  const access = await requireDueDiligenceAccess(db, actor, fileId);
  const rows = await itemRows(db, access.file.id, access.actor.side);
  // Only the documents of folders this founder sees: the other side's own folders stay theirs.
  const links = await queryRows<{ request_id: string; name: string }>(
    sql`select l.request_id, d.name from due_diligence_request_documents l
      join due_diligence_requests r on r.id = l.request_id
      join collaboration_documents d on d.id = l.document_id
      left join collaboration_folders fo on fo.id = d.folder_id
      where r.file_id = ${access.file.id}::uuid and d.withdrawn_at is null and ${folderSeenByFounder(actor.profileId)} order by d.name`,
  );
  const today = parisToday();
  return {
    reference: access.file.reference,
    side: access.actor.side,
    progress: listProgress(rows.map((r) => r.status)),
    rows: rows.map((r) => {
      const s = toSummary(r, today);
      return {
        category: s.category,
        title: s.title,
        status: s.status,
        ownerName: s.ownerName,
        dueDate: s.dueDate,
        documents: links.filter((l) => l.request_id === r.id).map((l) => l.name),
        openQuestions: s.openQuestions,
      };
    }),
  };
}
