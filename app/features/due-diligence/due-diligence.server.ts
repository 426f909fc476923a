// The due-diligence list of a collaboration file and its Q&A. Every function takes
// the acting member and goes through requireDueDiligenceAccess (a 404 for anyone outside the
// file); every id from a URL or a form is looked up inside that file. Commands lock the file row
// and write their timeline event and notification in the same transaction.
import { sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { OPERATION_TYPES, type OperationType } from "~/features/collaboration/agreement-rules";
import { actorName, appendFileEvent, fileConflict, requireFileAccess, type FileActor } from "~/features/collaboration/file-access.server";
import { parisToday } from "~/features/mandates/mandate-rules";
import { notifyProfile } from "~/features/notifications/notifications.server";
import { requireDueDiligenceAccess, withDueDiligence, type DdAccess } from "./access.server";
import { notifyParticipants } from "~/features/collaboration/participant-notifications.server";
import { answeredNotice } from "./participant-notices";
import { DD_ORDER, listCounts } from "./list-page.server";
import {
  canAnswerItem,
  canAnswerQuestion,
  canCloseQuestion,
  canEditList,
  canSeeQuestion,
  DD_CATEGORIES,
  DD_LIMITS,
  DD_MESSAGES,
  dueDiligenceItemUrl,
  dueDiligenceUrl,
  isOverdue,
  listProgress,
  nextStatuses,
  statusRefusal,
  STATUS_REFUSAL_MESSAGES,
  visibilitiesFor,
  type DdCategory,
  type DdProgress,
  type DdQuestionStatus,
  type DdSide,
  type DdStatus,
} from "./due-diligence-rules";
import { DD_TEMPLATES } from "./due-diligence-templates";
import { AppError, type AppErrorCode } from "~/lib/errors/app-error";

function refuse(message: string, code: AppErrorCode = "conflict"): never {
  fileConflict(message, code);
}

function itemNotFound(): never {
  throw new AppError("not-found", DD_MESSAGES.notFound);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// ---------------------------------------------------------------------------------------------
// Reading

type ItemRow = {
  id: string;
  category: DdCategory;
  title: string;
  position: number;
  status: DdStatus;
  owner_profile_id: string | null;
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
    sql`select r.id, r.category::text as category, r.title, r.position, r.status::text as status, r.owner_profile_id, r.due_date::text as due_date,
        (select count(*) from due_diligence_request_documents l join collaboration_documents d on d.id = l.document_id
          where l.request_id = r.id and d.withdrawn_at is null) as documents,
        (select count(*) from due_diligence_questions q where q.request_id = r.id and q.status = 'open'
          and (q.visibility = 'commun' or q.visibility = ${side}::dd_side)) as open_questions
      from due_diligence_requests r where r.file_id = ${fileId}::uuid ${requestId ? sql`and r.id = ${requestId}::uuid` : sql``}
      order by ${DD_ORDER} ${window ? sql`limit ${window.limit} offset ${window.offset}` : sql``}`,
    handle,
  );
}

function toSummary(r: ItemRow, access: DdAccess, today: string): DdItemSummary {
  return {
    id: r.id,
    category: r.category,
    title: r.title,
    status: r.status,
    ownerName: access.participants.find((p) => p.profileId === r.owner_profile_id)?.name ?? null,
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
    items: rows.map((r) => toSummary(r, access, today)),
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
  participants: { id: string; name: string; side: DdSide }[];
  documents: { id: string; name: string; withdrawn: boolean }[];
  /** The file's documents not linked yet (the link form's choices). */
  linkable: { id: string; name: string }[];
  questions: DdQuestionView[];
};

type ItemAccess = { access: DdAccess; row: ItemRow };

async function requireItem(handle: Db, access: DdAccess, requestId: string): Promise<ItemRow> {
  if (!UUID.test(requestId)) itemNotFound();
  const [row] = await itemRows(handle, access.file.id, access.actor.side, requestId);
  return row ?? itemNotFound();
}

async function loadItem(handle: Db, actor: Pick<FileActor, "profileId">, fileId: string, requestId: string, lock = false): Promise<ItemAccess> {
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
      from collaboration_documents d where d.file_id = ${access.file.id}::uuid order by d.created_at desc, d.id`,
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
    item: { ...toSummary(row, access, today), ownerId: row.owner_profile_id },
    statuses: nextStatuses(access.actor, { status: row.status, documents: Number(row.documents) }, access.closed),
    visibilities: visibilitiesFor(access.actor.side),
    participants: access.participants.map((p) => ({ id: p.profileId, name: p.name, side: p.side })),
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
// Notifications: the other people of the file who see what happened

async function notifyOthers(
  tx: Db,
  access: DdAccess,
  visibility: DdSide,
  kind: "dd_request" | "dd_question" | "dd_answer",
  text: { title: string; body: string; link: string },
): Promise<void> {
  for (const p of access.participants) {
    if (p.profileId === access.actor.profileId || !canSeeQuestion(p.side, visibility)) continue;
    await notifyProfile(p.profileId, kind, { title: `${text.title} (${access.file.reference})`, body: text.body, link: text.link }, tx);
  }
}

// ---------------------------------------------------------------------------------------------
// The list

function requireEdit(access: DdAccess): void {
  if (access.closed) refuse(DD_MESSAGES.closed);
  if (!canEditList(access.actor, access.closed)) refuse(DD_MESSAGES.forbiddenEdit, "forbidden");
}

/** Creates the list from the template of an operation type (once: a second call is a conflict). */
export async function createListFromTemplate(actor: FileActor, fileId: string, template: OperationType): Promise<number> {
  return withDueDiligence(actor, fileId, async (tx, access) => {
    requireEdit(access);
    const [existing] = await queryRows<{ n: number | string }>(sql`select count(*) as n from due_diligence_requests where file_id = ${access.file.id}::uuid`, tx);
    if (Number(existing?.n ?? 0) > 0) refuse(DD_MESSAGES.alreadyListed);
    const items = DD_TEMPLATES[template];
    const values = items.map(
      (item, i) => sql`(${access.file.id}::uuid, ${item.category}::dd_category, ${item.title}, ${i + 1}, ${actor.profileId}::uuid)`,
    );
    await tx.execute(sql`insert into due_diligence_requests (file_id, category, title, position, created_by) values ${sql.join(values, sql`, `)}`);
    await appendFileEvent(tx, access.file.id, actor, "dd_list_created", { count: items.length, template });
    await notifyOthers(tx, access, "commun", "dd_request", {
      title: "Nouvelle demande de diligences",
      body: `${actorName(actor)} a créé la liste de diligences du dossier (${items.length} demandes).`,
      link: dueDiligenceUrl(access.file.id),
    });
    await notifyParticipants(tx, access.file.id, {
      kind: "dd_request",
      title: "Nouvelle demande de diligences",
      body: `La liste de diligences du dossier est créée (${items.length} demandes).`,
      path: "/diligences",
      seenBy: "all",
    });
    return items.length;
  });
}

/** Adds one item at the end of its category. */
export async function addItem(actor: FileActor, fileId: string, input: { category: DdCategory; title: string }): Promise<string> {
  if (!DD_CATEGORIES.includes(input.category)) refuse("Rubrique inconnue", "invalid");
  return withDueDiligence(actor, fileId, async (tx, access) => {
    requireEdit(access);
    const [count] = await queryRows<{ n: number | string; last: number | null }>(
      sql`select count(*) as n, max(position) filter (where category = ${input.category}::dd_category) as last
        from due_diligence_requests where file_id = ${access.file.id}::uuid`,
      tx,
    );
    if (Number(count?.n ?? 0) >= DD_LIMITS.items) refuse(DD_MESSAGES.tooMany);
    const [created] = await queryRows<{ id: string }>(
      sql`insert into due_diligence_requests (file_id, category, title, position, created_by)
        values (${access.file.id}::uuid, ${input.category}::dd_category, ${input.title}, ${Number(count?.last ?? 0) + 1}, ${actor.profileId}::uuid) returning id`,
      tx,
    );
    await appendFileEvent(tx, access.file.id, actor, "dd_request_added", { name: input.title });
    await notifyOthers(tx, access, "commun", "dd_request", {
      title: "Nouvelle demande de diligences",
      body: `${actorName(actor)} demande\u00a0: ${input.title}`,
      link: dueDiligenceItemUrl(access.file.id, created!.id),
    });
    await notifyParticipants(tx, access.file.id, {
      kind: "dd_request",
      title: "Nouvelle demande de diligences",
      body: `${actorName(actor)} demande\u00a0: ${input.title}`,
      path: `/diligences/${created!.id}`,
      seenBy: "all",
    });
    return created!.id;
  });
}

/** Renames an item, gives it an owner (a person of the file) and a due date. */
export async function updateItem(
  actor: FileActor,
  fileId: string,
  requestId: string,
  input: { title: string; ownerId: string | null; dueDate: string | null },
): Promise<void> {
  await withDueDiligence(actor, fileId, async (tx, access) => {
    const row = await requireItem(tx, access, requestId);
    requireEdit(access);
    if (input.ownerId && !access.participants.some((p) => p.profileId === input.ownerId)) refuse(DD_MESSAGES.badOwner, "invalid");
    await tx.execute(sql`update due_diligence_requests set title = ${input.title}, owner_profile_id = ${input.ownerId}::uuid,
      due_date = ${input.dueDate}::date, updated_at = now() where id = ${row.id}::uuid`);
  });
}

/** Removes an item (its questions go with it; the documents stay in the file). */
export async function removeItem(actor: FileActor, fileId: string, requestId: string): Promise<void> {
  await withDueDiligence(actor, fileId, async (tx, access) => {
    const row = await requireItem(tx, access, requestId);
    requireEdit(access);
    await tx.execute(sql`delete from due_diligence_requests where id = ${row.id}::uuid`);
    await appendFileEvent(tx, access.file.id, actor, "dd_request_removed", { name: row.title });
  });
}

/** Moves an item to a status, as the transitions table allows the actor's side. */
export async function setItemStatus(actor: FileActor, fileId: string, requestId: string, to: DdStatus): Promise<void> {
  await withDueDiligence(actor, fileId, async (tx, access) => {
    const row = await requireItem(tx, access, requestId);
    const refusal = statusRefusal(access.actor, { status: row.status, documents: Number(row.documents) }, to, access.closed);
    if (refusal) refuse(STATUS_REFUSAL_MESSAGES[refusal], refusal === "forbidden" ? "forbidden" : "conflict");
    await tx.execute(sql`update due_diligence_requests set status = ${to}::dd_status, updated_at = now() where id = ${row.id}::uuid`);
    await appendFileEvent(tx, access.file.id, actor, "dd_request_status", { name: row.title, from: row.status, to });
  });
}

async function requireFileDocument(tx: Db, access: DdAccess, documentId: string): Promise<{ id: string; name: string; withdrawn: boolean }> {
  if (!UUID.test(documentId)) refuse(DD_MESSAGES.documentNotFound, "not-found");
  const [doc] = await queryRows<{ id: string; name: string; withdrawn_at: Date | null }>(
    sql`select id, name, withdrawn_at from collaboration_documents where id = ${documentId}::uuid and file_id = ${access.file.id}::uuid`,
    tx,
  );
  if (!doc) refuse(DD_MESSAGES.documentNotFound, "not-found");
  return { id: doc.id, name: doc.name, withdrawn: doc.withdrawn_at !== null };
}

/** Links a document of the file to an item (its status is the seller's side's own move). */
export async function linkDocument(actor: FileActor, fileId: string, requestId: string, documentId: string): Promise<void> {
  await withDueDiligence(actor, fileId, async (tx, access) => {
    const row = await requireItem(tx, access, requestId);
    const doc = await requireFileDocument(tx, access, documentId);
    if (!canAnswerItem(access.actor, access.closed)) refuse(access.closed ? DD_MESSAGES.closed : DD_MESSAGES.forbiddenStatus, access.closed ? "conflict" : "forbidden");
    if (doc.withdrawn) refuse(DD_MESSAGES.withdrawnDocument);
    const inserted = await queryRows<{ request_id: string }>(
      sql`insert into due_diligence_request_documents (request_id, document_id, linked_by) values (${row.id}::uuid, ${doc.id}::uuid, ${actor.profileId}::uuid)
        on conflict do nothing returning request_id`,
      tx,
    );
    if (!inserted.length) refuse(DD_MESSAGES.alreadyLinked);
    await appendFileEvent(tx, access.file.id, actor, "dd_document_linked", { name: `${row.title} · ${doc.name}` });
  });
}

/** Detaches a document from an item (the document stays in the file). */
export async function unlinkDocument(actor: FileActor, fileId: string, requestId: string, documentId: string): Promise<void> {
  await withDueDiligence(actor, fileId, async (tx, access) => {
    const row = await requireItem(tx, access, requestId);
    const doc = await requireFileDocument(tx, access, documentId);
    if (!canAnswerItem(access.actor, access.closed)) refuse(access.closed ? DD_MESSAGES.closed : DD_MESSAGES.forbiddenStatus, access.closed ? "conflict" : "forbidden");
    await tx.execute(sql`delete from due_diligence_request_documents where request_id = ${row.id}::uuid and document_id = ${doc.id}::uuid`);
  });
}

/** Before an upload from an item: the item exists in the file and the actor may answer it. */
export async function assertCanAnswerItem(actor: Pick<FileActor, "profileId">, fileId: string, requestId: string): Promise<void> {
  const { access } = await loadItem(db, actor, fileId, requestId);
  if (!canAnswerItem(access.actor, access.closed)) refuse(access.closed ? DD_MESSAGES.closed : DD_MESSAGES.forbiddenStatus, access.closed ? "conflict" : "forbidden");
}

// ---------------------------------------------------------------------------------------------
// Questions

/** Asks a question on an item, or on one of the documents linked to it. */
export async function askQuestion(
  actor: FileActor,
  fileId: string,
  requestId: string,
  input: { documentId: string | null; visibility: DdSide; body: string },
): Promise<string> {
  return withDueDiligence(actor, fileId, async (tx, access) => {
    const row = await requireItem(tx, access, requestId);
    if (access.closed) refuse(DD_MESSAGES.closed);
    if (!visibilitiesFor(access.actor.side).includes(input.visibility)) refuse(DD_MESSAGES.badVisibility, "invalid");
    let documentId: string | null = null;
    if (input.documentId) {
      const doc = await requireFileDocument(tx, access, input.documentId);
      const [linked] = await queryRows<{ ok: number }>(
        sql`select 1 as ok from due_diligence_request_documents where request_id = ${row.id}::uuid and document_id = ${doc.id}::uuid`,
        tx,
      );
      if (!linked) refuse(DD_MESSAGES.documentNotFound, "not-found");
      documentId = doc.id;
    }
    const [created] = await queryRows<{ id: string }>(
      sql`insert into due_diligence_questions (file_id, request_id, document_id, visibility, body, asked_by, asker_name, asker_side)
        values (${access.file.id}::uuid, ${row.id}::uuid, ${documentId}::uuid, ${input.visibility}::dd_side, ${input.body},
          ${actor.profileId}::uuid, ${actorName(actor)}, ${access.actor.side}::dd_side) returning id`,
      tx,
    );
    // A question kept to one side stays off the shared timeline.
    if (input.visibility === "commun") await appendFileEvent(tx, access.file.id, actor, "dd_question_asked", { name: row.title });
    await notifyOthers(tx, access, input.visibility, "dd_question", {
      title: "Question posée sur une diligence",
      body: `${actorName(actor)} pose une question sur «\u00a0${row.title}\u00a0».`,
      link: dueDiligenceItemUrl(access.file.id, row.id),
    });
    return created!.id;
  });
}

type QuestionCheckRow = { id: string; request_id: string | null; asked_by: string | null; visibility: DdSide; status: DdQuestionStatus; title: string | null };

/** A question of the file that the actor's side sees, locked; a 404 otherwise. */
async function requireQuestion(tx: Db, access: DdAccess, questionId: string): Promise<QuestionCheckRow> {
  if (!UUID.test(questionId)) refuse(DD_MESSAGES.questionNotFound, "not-found");
  const [q] = await queryRows<QuestionCheckRow>(
    sql`select q.id, q.request_id, q.asked_by, q.visibility::text as visibility, q.status::text as status, r.title
      from due_diligence_questions q left join due_diligence_requests r on r.id = q.request_id
      where q.id = ${questionId}::uuid and q.file_id = ${access.file.id}::uuid for update of q`,
    tx,
  );
  if (!q || !canSeeQuestion(access.actor.side, q.visibility)) refuse(DD_MESSAGES.questionNotFound, "not-found");
  return q;
}

/** Answers an open question (someone other than its asker). */
export async function answerQuestion(actor: FileActor, fileId: string, questionId: string, answer: string): Promise<void> {
  await withDueDiligence(actor, fileId, async (tx, access) => {
    const q = await requireQuestion(tx, access, questionId);
    if (access.closed) refuse(DD_MESSAGES.closed);
    if (q.status === "closed") refuse(DD_MESSAGES.questionClosed);
    if (!canAnswerQuestion(access.actor, { askedBy: q.asked_by, visibility: q.visibility, status: q.status }, access.closed)) refuse(DD_MESSAGES.forbiddenAnswer, "forbidden");
    await tx.execute(sql`update due_diligence_questions set answer = ${answer}, answered_by = ${actor.profileId}::uuid, answerer_name = ${actorName(actor)},
      answered_at = now(), status = 'answered', updated_at = now() where id = ${q.id}::uuid`);
    if (q.visibility === "commun") await appendFileEvent(tx, access.file.id, actor, "dd_question_answered", { name: q.title ?? "" });
    await notifyOthers(tx, access, q.visibility, "dd_answer", {
      title: "Question répondue",
      body: `${actorName(actor)} a répondu à votre question${q.title ? ` sur «\u00a0${q.title}\u00a0»` : ""}.`,
      link: q.request_id ? dueDiligenceItemUrl(access.file.id, q.request_id) : dueDiligenceUrl(access.file.id),
    });
    await notifyParticipants(tx, access.file.id, answeredNotice(q.visibility, actorName(actor), q.title, q.request_id));
  });
}

/** Closes a question (its asker, or a founding member who sees it). */
export async function closeQuestion(actor: FileActor, fileId: string, questionId: string): Promise<void> {
  await withDueDiligence(actor, fileId, async (tx, access) => {
    const q = await requireQuestion(tx, access, questionId);
    if (access.closed) refuse(DD_MESSAGES.closed);
    if (q.status === "closed") refuse(DD_MESSAGES.questionClosed);
    if (!canCloseQuestion(access.actor, { askedBy: q.asked_by, visibility: q.visibility, status: q.status }, access.closed)) refuse(DD_MESSAGES.forbiddenClose, "forbidden");
    await tx.execute(sql`update due_diligence_questions set status = 'closed', updated_at = now() where id = ${q.id}::uuid`);
  });
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
  const links = await queryRows<{ request_id: string; name: string }>(
    sql`select l.request_id, d.name from due_diligence_request_documents l
      join due_diligence_requests r on r.id = l.request_id
      join collaboration_documents d on d.id = l.document_id
      where r.file_id = ${access.file.id}::uuid and d.withdrawn_at is null order by d.name`,
  );
  const today = parisToday();
  return {
    reference: access.file.reference,
    side: access.actor.side,
    progress: listProgress(rows.map((r) => r.status)),
    rows: rows.map((r) => {
      const s = toSummary(r, access, today);
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
