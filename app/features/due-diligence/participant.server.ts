// The due-diligence list as an invited participant reaches it: through
// requireFileParticipant and the reach table, their side's questions, the documents of the
// folders their side sees, answers with a document into a folder they may deposit into.
import { sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { isClosed } from "~/features/collaboration/collaboration-rules";
import { fileConflict } from "~/features/collaboration/file-access.server";
import { shareParticipantDocument } from "~/features/collaboration/participant-documents.server";
import { ddActorOf, mayReach, REACH_MESSAGES, type FileAction } from "~/features/due-diligence/participant-reach-rules";
import { isAllowed, type FolderVisibility } from "~/features/collaboration/participant-rules";
import { appendParticipantEvent, requireFileParticipant, type FileParticipantAccess } from "~/features/collaboration/participant-access.server";
import { listVisibleFolders } from "~/features/collaboration/participants.server";
import { isUuid } from "~/lib/uuid";
import {
  canAnswerQuestion,
  canSeeQuestion,
  DD_MESSAGES,
  listProgress,
  nextStatuses,
  settlesRequest,
  statusRefusal,
  STATUS_REFUSAL_MESSAGES,
  visibilitiesFor,
  type DdActor,
  type DdCategory,
  type DdProgress,
  type DdQuestionStatus,
  type DdSide,
  type DdStatus,
} from "./due-diligence-rules";
import { DD_ORDER, listCounts, OWNER_NAME } from "./list-page.server";
import type { DdExportList } from "./export.server";
import { notifyFounders, notifyParticipants } from "~/features/collaboration/participant-notifications.server";
import { completeTask } from "~/features/notifications/notifications.server";
import { taskKey } from "~/features/notifications/event-rules";
import { answeredFounderNotice, answeredNotice, askedFounderNotice, askedNotice, providedFounderNotice } from "./participant-notices";
import { followReview } from "./review-task.server";

type Reach = { access: FileParticipantAccess; actor: DdActor; closed: boolean };

/** The participant's access, refused (403) when the reach table does not give this action. */
async function reach(handle: Db, userId: string, fileId: string, action: FileAction, lock = false): Promise<Reach> {
  const access = await requireFileParticipant(handle, userId, fileId, { lock });
  const closed = isClosed(access.stage);
  if (!mayReach(access, action, closed)) fileConflict(closed && action !== "dd-read" ? DD_MESSAGES.closed : REACH_MESSAGES.noRight, closed && action !== "dd-read" ? "conflict" : "forbidden");
  return { access, actor: ddActorOf(access), closed };
}

/** The documents of the folders this side sees (alias d, folder fo). */
const folderSeen = (side: string) => sql`(d.folder_id is null or fo.visibility = 'both' or fo.visibility = ${side})`;

type ItemRow = {
  id: string;
  category: DdCategory;
  title: string;
  status: DdStatus;
  due_date: string | null;
  owner_name: string | null;
  owner_participant_id: string | null;
  documents: number | string;
  all_documents: number | string;
  open_questions: number | string;
};

async function itemRows(handle: Db, r: Reach, requestId?: string, window?: { limit: number; offset: number }): Promise<ItemRow[]> {
  return queryRows<ItemRow>(
    sql`select r.id, r.category::text as category, r.title, r.status::text as status, r.due_date::text as due_date,
        ${OWNER_NAME} as owner_name, r.owner_participant_id,
        (select count(*) from due_diligence_request_documents l join collaboration_documents d on d.id = l.document_id
          left join collaboration_folders fo on fo.id = d.folder_id
          where l.request_id = r.id and d.withdrawn_at is null and ${folderSeen(r.access.side)}) as documents,
        (select count(*) from due_diligence_request_documents l join collaboration_documents d on d.id = l.document_id
          where l.request_id = r.id and d.withdrawn_at is null) as all_documents,
        (select count(*) from due_diligence_questions q where q.request_id = r.id and q.status = 'open'
          and (q.visibility = 'commun' or q.visibility = ${r.actor.side}::dd_side)) as open_questions
      from due_diligence_requests r where r.file_id = ${r.access.fileId}::uuid ${requestId ? sql`and r.id = ${requestId}::uuid` : sql``}
      order by ${DD_ORDER} ${window ? sql`limit ${window.limit} offset ${window.offset}` : sql``}`,
    handle,
  );
}

export type ParticipantDdItem = {
  id: string;
  category: DdCategory;
  title: string;
  status: DdStatus;
  dueDate: string | null;
  /** Its owner's name, « vous » when it is this participant. */
  ownerName: string | null;
  documents: number;
  openQuestions: number;
};

const summary = (r: ItemRow, access: FileParticipantAccess): ParticipantDdItem => ({
  id: r.id,
  category: r.category,
  title: r.title,
  status: r.status,
  dueDate: r.due_date,
  ownerName: r.owner_participant_id && r.owner_participant_id === access.participantId ? "vous" : r.owner_name,
  documents: Number(r.documents),
  openQuestions: Number(r.open_questions),
});

export type ParticipantDdList = {
  fileId: string;
  reference: string;
  side: DdSide;
  closed: boolean;
  progress: DdProgress | null;
  /** One page (DD_PAGE_SIZE) of the list, in its order. */
  items: ParticipantDdItem[];
  page: number;
  pageCount: number;
  total: number;
  byCategory: Partial<Record<DdCategory, number>>;
};

/** One page of the list as this participant's side sees it (403 without « voir »). */
export async function getParticipantDueDiligence(userId: string, fileId: string, page = 1): Promise<ParticipantDdList> {
  const r = await reach(db, userId, fileId, "dd-read");
  const counts = await listCounts(db, r.access.fileId, page);
  const rows = counts.window.total ? await itemRows(db, r, undefined, counts.window) : [];
  return {
    fileId: r.access.fileId,
    reference: r.access.reference,
    side: r.actor.side,
    closed: r.closed,
    progress: counts.progress,
    items: rows.map((row) => summary(row, r.access)),
    page: counts.window.page,
    pageCount: counts.window.pageCount,
    total: counts.window.total,
    byCategory: counts.byCategory,
  };
}

/**
 * The whole list as this participant's side sees it, for their closing archive: every request (no
 * page), the names of its documents in the folders their side sees, its owner. Two statements.
 */
export async function participantListForArchive(userId: string, fileId: string): Promise<{ access: FileParticipantAccess; list: DdExportList | null }> {
  const r = await reach(db, userId, fileId, "dd-read");
  const rows = await itemRows(db, r);
  if (!rows.length) return { access: r.access, list: null };
  const links = await queryRows<{ request_id: string; name: string }>(sql`
    select l.request_id, d.name from due_diligence_request_documents l
      join due_diligence_requests rq on rq.id = l.request_id
      join collaboration_documents d on d.id = l.document_id
      left join collaboration_folders fo on fo.id = d.folder_id
    where rq.file_id = ${r.access.fileId}::uuid and d.withdrawn_at is null and ${folderSeen(r.access.side)} order by d.name`);
  return {
    access: r.access,
    list: {
      reference: r.access.reference,
      side: r.actor.side,
      progress: listProgress(rows.map((x) => x.status)),
      rows: rows.map((x) => ({
        category: x.category,
        title: x.title,
        status: x.status,
        ownerName: x.owner_name,
        dueDate: x.due_date,
        documents: links.filter((l) => l.request_id === x.id).map((l) => l.name),
        openQuestions: Number(x.open_questions),
      })),
    },
  };
}

/** The documents of the folders a participant's side sees (alias d, folder fo), for questions on them. */
export const participantDocumentSeen = folderSeen;

/** The file's stage and the list's progress for a participant's overview (nothing of the list without « voir »). */
export async function getParticipantProgress(access: FileParticipantAccess): Promise<DdProgress | null> {
  if (!mayReach(access, "dd-read", isClosed(access.stage))) return null;
  const rows = await queryRows<{ status: DdStatus }>(sql`select status::text as status from due_diligence_requests where file_id = ${access.fileId}::uuid`);
  return rows.length ? listProgress(rows.map((x) => x.status)) : null;
}

export type ParticipantDdQuestion = {
  id: string;
  onDocument: string | null;
  visibility: DdSide;
  body: string;
  askerName: string;
  askedAt: string;
  answer: string | null;
  answererName: string | null;
  status: DdQuestionStatus;
  canAnswer: boolean;
};

export type ParticipantDdItemPage = {
  fileId: string;
  reference: string;
  closed: boolean;
  side: DdSide;
  item: ParticipantDdItem;
  documents: { id: string; name: string; canDownload: boolean; isPdf: boolean }[];
  questions: ParticipantDdQuestion[];
  canAsk: boolean;
  visibilities: DdSide[];
  statuses: DdStatus[];
  /** Folders this participant may deposit into (the answer's upload); empty: no upload. */
  depositFolders: { id: string | null; name: string }[];
};

function notFound(): never {
  fileConflict(DD_MESSAGES.notFound, "not-found");
}

async function requireItem(handle: Db, r: Reach, requestId: string): Promise<ItemRow> {
  if (!isUuid(requestId)) notFound();
  const [row] = await itemRows(handle, r, requestId);
  return row ?? notFound();
}

const may = (access: FileParticipantAccess, visibility: FolderVisibility, right: "voir" | "telecharger" | "deposer") =>
  isAllowed({ role: access.role, side: access.side, visibility, rights: access.rights, right });

/** Folders this participant may deposit into, the general one first. */
async function depositFolders(access: FileParticipantAccess): Promise<{ id: string | null; name: string }[]> {
  const folders = [{ id: null, name: "Général", visibility: "both" as const }, ...(await listVisibleFolders(access))];
  return folders.filter((f) => may(access, f.visibility, "deposer")).map((f) => ({ id: f.id, name: f.name }));
}

/** One request: its documents of the folders this side sees, the questions of this side. */
export async function getParticipantDueDiligenceItem(userId: string, fileId: string, requestId: string): Promise<ParticipantDdItemPage> {
  const r = await reach(db, userId, fileId, "dd-read");
  const row = await requireItem(db, r, requestId);
  const docs = await queryRows<{ id: string; name: string; content_type: string; visibility: FolderVisibility }>(sql`
    select d.id, d.name, d.content_type, coalesce(fo.visibility, 'both') as visibility
    from due_diligence_request_documents l join collaboration_documents d on d.id = l.document_id
    left join collaboration_folders fo on fo.id = d.folder_id
    where l.request_id = ${row.id}::uuid and d.withdrawn_at is null and ${folderSeen(r.access.side)}
    order by d.created_at desc, d.id`);
  const questions = await queryRows<{
    id: string;
    document_id: string | null;
    document_name: string | null;
    visibility: DdSide;
    body: string;
    author: string | null;
    asker_name: string;
    answer: string | null;
    answerer_name: string | null;
    status: DdQuestionStatus;
    created_at: Date | string;
  }>(sql`
    select q.id, q.document_id, d.name as document_name, q.visibility::text as visibility, q.body,
      coalesce(q.asked_by::text, 'participant:' || q.asked_by_participant::text) as author, q.asker_name,
      q.answer, q.answerer_name, q.status::text as status, q.created_at
    from due_diligence_questions q left join collaboration_documents d on d.id = q.document_id
    where q.file_id = ${r.access.fileId}::uuid
      and (q.request_id = ${row.id}::uuid ${docs.length ? sql`or q.document_id in (${sql.join(docs.map((x) => sql`${x.id}::uuid`), sql`, `)})` : sql``})
      and (q.visibility = 'commun' or q.visibility = ${r.actor.side}::dd_side)
    order by q.created_at, q.id`);
  const canStatus = mayReach(r.access, "dd-status", r.closed);
  const canProvide = mayReach(r.access, "dd-provide", r.closed);
  return {
    fileId: r.access.fileId,
    reference: r.access.reference,
    closed: r.closed,
    side: r.actor.side,
    item: summary(row, r.access),
    documents: docs.map((d) => ({ id: d.id, name: d.name, canDownload: may(r.access, d.visibility, "telecharger"), isPdf: d.content_type === "application/pdf" })),
    questions: questions.map((q) => ({
      id: q.id,
      onDocument: q.document_id ? (q.document_name ?? "Document") : null,
      visibility: q.visibility,
      body: q.body,
      askerName: q.asker_name,
      askedAt: new Date(q.created_at).toISOString(),
      answer: q.answer,
      answererName: q.answerer_name,
      status: q.status,
      canAnswer: mayReach(r.access, "dd-ask", r.closed) && canAnswerQuestion(r.actor, { askedBy: q.author, visibility: q.visibility, status: q.status }, r.closed),
    })),
    canAsk: mayReach(r.access, "dd-ask", r.closed),
    visibilities: visibilitiesFor(r.actor.side),
    statuses: canStatus ? nextStatuses(r.actor, { status: row.status, documents: Number(row.all_documents) }, r.closed) : [],
    depositFolders: canProvide ? await depositFolders(r.access) : [],
  };
}

/** A participant asks a question on a request, for both sides or their own side only. */
export async function participantAsk(userId: string, fileId: string, requestId: string, input: { visibility: DdSide; body: string }): Promise<string> {
  return db.transaction(async (tx) => {
    const r = await reach(tx, userId, fileId, "dd-ask", true);
    const row = await requireItem(tx, r, requestId);
    if (!visibilitiesFor(r.actor.side).includes(input.visibility)) fileConflict(DD_MESSAGES.badVisibility, "invalid");
    const [q] = await queryRows<{ id: string }>(
      sql`insert into due_diligence_questions (file_id, request_id, visibility, body, asked_by, asked_by_participant, asker_name, asker_side)
        values (${r.access.fileId}::uuid, ${row.id}::uuid, ${input.visibility}::dd_side, ${input.body}, ${r.access.profileId}::uuid, ${r.access.participantId}::uuid,
          ${r.access.name}, ${r.actor.side}::dd_side) returning id`,
      tx,
    );
    // A side-only question stays off the shared timeline.
    if (input.visibility === "commun") await appendParticipantEvent(tx, r.access, "dd_question_asked", { name: row.title });
    await notifyFounders(tx, r.access.fileId, askedFounderNotice(r.access.fileId, q!.id, input.visibility, r.access.name, row.title, row.id));
    await notifyParticipants(tx, r.access.fileId, { ...askedNotice(input.visibility, r.access.name, row.title, row.id), exceptParticipantId: r.access.participantId });
    return q!.id;
  });
}

/** A participant answers an open question their side sees and did not ask. */
export async function participantAnswer(userId: string, fileId: string, questionId: string, answer: string): Promise<void> {
  await db.transaction(async (tx) => {
    const r = await reach(tx, userId, fileId, "dd-ask", true);
    if (!isUuid(questionId)) fileConflict(DD_MESSAGES.questionNotFound, "not-found");
    const [q] = await queryRows<{ id: string; visibility: DdSide; status: DdQuestionStatus; author: string | null; title: string | null; request_id: string | null }>(
      sql`select q.id, q.visibility::text as visibility, q.status::text as status, q.request_id,
          coalesce(q.asked_by::text, 'participant:' || q.asked_by_participant::text) as author, r.title
        from due_diligence_questions q left join due_diligence_requests r on r.id = q.request_id
        where q.id = ${questionId}::uuid and q.file_id = ${r.access.fileId}::uuid for update of q`,
      tx,
    );
    if (!q || !canSeeQuestion(r.actor.side, q.visibility)) fileConflict(DD_MESSAGES.questionNotFound, "not-found");
    if (!canAnswerQuestion(r.actor, { askedBy: q.author, visibility: q.visibility, status: q.status }, r.closed)) fileConflict(DD_MESSAGES.forbiddenAnswer, "forbidden");
    await tx.execute(sql`update due_diligence_questions set answer = ${answer}, answered_by = ${r.access.profileId}::uuid, answered_by_participant = ${r.access.participantId}::uuid,
      answerer_name = ${r.access.name}, answered_at = clock_timestamp(), status = 'answered', updated_at = clock_timestamp() where id = ${q.id}::uuid`);
    if (q.visibility === "commun") await appendParticipantEvent(tx, r.access, "dd_question_answered", { name: q.title ?? "" });
    await completeTask(taskKey("dd_question", q.id), tx);
    await notifyFounders(tx, r.access.fileId, answeredFounderNotice(r.access.fileId, q.visibility, r.access.name, q.title, q.request_id));
    await notifyParticipants(tx, r.access.fileId, { ...answeredNotice(q.visibility, r.access.name, q.title, q.request_id), exceptParticipantId: r.access.participantId });
  });
}

/** A participant with « déposer » moves a request as their side's transitions allow. */
export async function participantSetStatus(userId: string, fileId: string, requestId: string, to: DdStatus): Promise<void> {
  await db.transaction(async (tx) => {
    const r = await reach(tx, userId, fileId, "dd-status", true);
    const row = await requireItem(tx, r, requestId);
    const refusal = statusRefusal(r.actor, { status: row.status, documents: Number(row.all_documents) }, to, r.closed);
    if (refusal) fileConflict(STATUS_REFUSAL_MESSAGES[refusal], refusal === "forbidden" ? "forbidden" : "conflict");
    await tx.execute(sql`update due_diligence_requests set status = ${to}::dd_status, updated_at = clock_timestamp() where id = ${row.id}::uuid`);
    await appendParticipantEvent(tx, r.access, "dd_request_status", { name: row.title, from: row.status, to });
    if (settlesRequest(to)) await completeTask(taskKey("dd_request", row.id), tx);
    await followReview(tx, r.access.fileId, { id: row.id, title: row.title, from: row.status, to }, { name: r.access.name, participantId: r.access.participantId });
    if (to === "provided") await notifyFounders(tx, r.access.fileId, providedFounderNotice(r.access.fileId, r.access.name, row.title, row.id, "status"));
  });
}

/**
 * A participant answers a request with a new document into a folder they may deposit into: the
 * document is shared first (the room's rules), then linked; if linking fails it stays shared.
 */
export async function participantProvide(
  userId: string,
  fileId: string,
  requestId: string,
  folderId: string | null,
  input: { name: string; bytes: Uint8Array },
): Promise<{ documentId: string; name: string }> {
  const first = await reach(db, userId, fileId, "dd-provide");
  await requireItem(db, first, requestId);
  // The founders hear of the answer to the request, not of a document besides it.
  const shared = await shareParticipantDocument(userId, fileId, folderId, input, { toFounders: false });
  await db.transaction(async (tx) => {
    const r = await reach(tx, userId, fileId, "dd-provide", true);
    const row = await requireItem(tx, r, requestId);
    await tx.execute(sql`insert into due_diligence_request_documents (request_id, document_id, linked_by, linked_by_participant)
      values (${row.id}::uuid, ${shared.documentId}::uuid, ${r.access.profileId}::uuid, ${r.access.participantId}::uuid) on conflict do nothing`);
    await appendParticipantEvent(tx, r.access, "dd_document_linked", { name: `${row.title} · ${shared.name}` });
    await notifyFounders(tx, r.access.fileId, providedFounderNotice(r.access.fileId, r.access.name, row.title, row.id, "document"));
  });
  return shared;
}
