// The due-diligence list's commands and its Q&A (what it shows: due-diligence-read.server.ts).
// Every function takes the acting member and goes through requireDueDiligenceAccess (a 404 for
// anyone outside the file); every id from a URL or a form is looked up inside that file. Commands
// lock the file row and write their timeline event and notification in the same transaction.
import { sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import type { OperationType } from "~/features/collaboration/agreement-rules";
import { actorName, appendFileEvent, type FileActor } from "~/features/collaboration/file-access.server";
import { completeTask, notifyProfile } from "~/features/notifications/notifications.server";
import { taskKey } from "~/features/notifications/event-rules";
import { withDueDiligence, type DdAccess, type DdOwnerChoice } from "./access.server";
import { notifyParticipants } from "~/features/collaboration/participant-notifications.server";
import { answeredNotice, askedNotice } from "./participant-notices";
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
  statusRefusal,
  STATUS_REFUSAL_MESSAGES,
  visibilitiesFor,
  settlesRequest,
  type DdCategory,
  type DdQuestionStatus,
  type DdSide,
  type DdStatus,
} from "./due-diligence-rules";
import { DD_TEMPLATES } from "./due-diligence-templates";
import { closeRequestTasks, followReview } from "./review-task.server";
import { loadItem, refuse, requireItem, UUID } from "./due-diligence-read.server";

// ---------------------------------------------------------------------------------------------
// Notifications: the other people of the file who see what happened

/** A request given to someone: a to-do for them (never for the founder who gave it to themself). */
async function notifyOwner(tx: Db, access: DdAccess, owner: DdOwnerChoice, actor: FileActor, request: { id: string; title: string }): Promise<void> {
  const task = taskKey("dd_request", request.id);
  const body = `${actorName(actor)} vous confie la demande «\u00a0${request.title}\u00a0».`;
  if (owner.kind === "founder") {
    if (owner.id === actor.profileId) return;
    await notifyProfile(owner.id, "dd_request", { title: `Demande de diligences à fournir (${access.file.reference})`, body, link: dueDiligenceItemUrl(access.file.id, request.id) }, tx, { task });
    return;
  }
  await notifyParticipants(tx, access.file.id, {
    kind: "dd_request",
    title: "Demande de diligences à fournir",
    body,
    path: `/diligences/${request.id}`,
    seenBy: "all",
    onlyParticipantId: owner.id,
    task,
  });
}

async function notifyOthers(
  tx: Db,
  access: DdAccess,
  visibility: DdSide,
  kind: "dd_request" | "dd_question" | "dd_answer",
  text: { title: string; body: string; link: string },
  task?: string,
): Promise<void> {
  for (const p of access.participants) {
    if (p.profileId === access.actor.profileId || !canSeeQuestion(p.side, visibility)) continue;
    await notifyProfile(p.profileId, kind, { title: `${text.title} (${access.file.reference})`, body: text.body, link: text.link }, tx, task ? { task } : {});
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
    const current = row.owner_profile_id ?? row.owner_participant_id;
    // The current owner stays when the form sends it back, even if no longer admitted; a new one must be.
    const owner = input.ownerId && input.ownerId !== current ? access.owners.find((o) => o.id === input.ownerId) : null;
    if (input.ownerId && input.ownerId !== current && !owner) refuse(DD_MESSAGES.badOwner, "invalid");
    const keep = input.ownerId !== null && input.ownerId === current;
    const profileOwner = keep ? row.owner_profile_id : owner?.kind === "founder" ? owner.id : null;
    const participantOwner = keep ? row.owner_participant_id : owner?.kind === "participant" ? owner.id : null;
    await tx.execute(sql`update due_diligence_requests set title = ${input.title}, owner_profile_id = ${profileOwner}::uuid,
      owner_participant_id = ${participantOwner}::uuid, due_date = ${input.dueDate}::date, updated_at = now() where id = ${row.id}::uuid`);
    if (input.ownerId !== current) {
      // The request waits for its owner: their to-do, until it is provided or given to someone else.
      await completeTask(taskKey("dd_request", row.id), tx);
      if (owner) await notifyOwner(tx, access, owner, actor, { id: row.id, title: input.title });
    }
  });
}

/** Removes an item (its questions go with it; the documents stay in the file). */
export async function removeItem(actor: FileActor, fileId: string, requestId: string): Promise<void> {
  await withDueDiligence(actor, fileId, async (tx, access) => {
    const row = await requireItem(tx, access, requestId);
    requireEdit(access);
    await tx.execute(sql`delete from due_diligence_requests where id = ${row.id}::uuid`);
    await appendFileEvent(tx, access.file.id, actor, "dd_request_removed", { name: row.title });
    await closeRequestTasks(tx, row.id);
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
    if (settlesRequest(to)) await completeTask(taskKey("dd_request", row.id), tx);
    await followReview(tx, access.file.id, { id: row.id, title: row.title, from: row.status, to }, { name: actorName(actor), profileId: actor.profileId });
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
    // Something to answer: a to-do for the other founder, until it is answered or closed.
    await notifyOthers(
      tx,
      access,
      input.visibility,
      "dd_question",
      {
        title: "Question posée sur une diligence",
        body: `${actorName(actor)} pose une question sur «\u00a0${row.title}\u00a0».`,
        link: dueDiligenceItemUrl(access.file.id, row.id),
      },
      taskKey("dd_question", created!.id),
    );
    await notifyParticipants(tx, access.file.id, askedNotice(input.visibility, actorName(actor), row.title, row.id));
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
    await completeTask(taskKey("dd_question", q.id), tx);
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
    await completeTask(taskKey("dd_question", q.id), tx);
  });
}
