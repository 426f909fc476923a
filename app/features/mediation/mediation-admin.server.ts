// Mediation, the team's side: the queue, one mediation with the file it concerns,
// the status, the exchange and the decision. Each command runs in one transaction with its
// audit row and its e-mails to both members.
//
// The one exception to "a collaboration file is its two members' only": while a mediation of a
// file is open or in progress, administrators read that file's timeline and the list of its
// documents (names, sizes, dates; never a document's content) through getMediatedFile. Once the
// mediation is decided, or for a file without one, it is a 404 again.
import { sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { mediationMessages, mediations } from "~/db/schema";
import { jsonValue, queryRows } from "~/db/query.server";
import { DOCUMENT_FORMATS } from "~/features/collaboration/documents-rules";
import { fileNotFound } from "~/features/collaboration/file-access.server";
import { appendFileEvent } from "~/features/collaboration/file-access.server";
import { STAGE_LABELS, type Stage } from "~/features/collaboration/collaboration-rules";
import { timelineLabel } from "~/features/collaboration/timeline";
import { isUuid } from "~/lib/uuid";
import { refreshReputation } from "~/features/trust/reputation.server";
import { completeTask } from "~/features/notifications/notifications.server";
import { taskKey } from "~/features/notifications/event-rules";
import { auditMediation, consumeMessageRate, lockMediation, mailMember, mediationNotFound, refuse } from "./mediation.server";
import {
  buildMediationViews,
  MEDIATION_COLUMNS,
  TEAM_NAME,
  type MediationAttachmentRow,
  type MediationMessageRow,
  type MediationRow,
  type MediationView,
} from "./mediation-views.server";
import { canMoveMediation, isActive, MEDIATION_MESSAGES, MEDIATION_STATUS_LABELS, MEDIATION_STATUSES, type MediationStatus } from "./mediation-rules";
import type { MediationDecisionInput } from "./mediation.schema";

export type AdminActor = { id: string };

// ---------------------------------------------------------------------------------------------
// The queue

export const MEDIATION_QUEUE_PAGE_SIZE = 20;

export type MediationQueueRow = {
  id: string;
  status: MediationStatus;
  statusLabel: string;
  subject: string;
  openedByName: string;
  respondentName: string;
  createdAt: string;
  updatedAt: string;
  messages: number;
};

export type MediationQueue = { rows: MediationQueueRow[]; counts: Record<MediationStatus, number>; total: number; page: number; pageCount: number };

/** The queue, active first (oldest first: the longest waiting), then the decided ones. */
export async function listMediationQueue(query: { status: MediationStatus | null; page: number }): Promise<MediationQueue> {
  const where = query.status ? sql`where m.status = ${query.status}::mediation_status` : sql``;
  const countRows = await queryRows<{ status: MediationStatus; n: number | string }>(sql`select status::text as status, count(*) as n from mediations group by status`);
  const counts = Object.fromEntries(MEDIATION_STATUSES.map((s) => [s, 0])) as Record<MediationStatus, number>;
  for (const c of countRows) counts[c.status] = Number(c.n);
  const total = query.status ? counts[query.status] : Object.values(counts).reduce((a, b) => a + b, 0);
  const pageCount = Math.max(1, Math.ceil(total / MEDIATION_QUEUE_PAGE_SIZE));
  const page = Math.min(Math.max(1, query.page), pageCount);
  const rows = await queryRows<{
    id: string;
    status: MediationStatus;
    subject: string;
    opened_by_name: string;
    respondent_name: string;
    created_at: Date | string;
    updated_at: Date | string;
    messages: number | string;
  }>(sql`
    select m.id, m.status::text as status, m.subject, m.opened_by_name, m.respondent_name, m.created_at, m.updated_at,
      (select count(*) from mediation_messages x where x.mediation_id = m.id) as messages
    from mediations m ${where}
    order by (m.status in ('open', 'in_progress')) desc, case when m.status in ('open', 'in_progress') then m.created_at end asc, m.updated_at desc, m.id
    limit ${MEDIATION_QUEUE_PAGE_SIZE} offset ${(page - 1) * MEDIATION_QUEUE_PAGE_SIZE}`);
  return {
    rows: rows.map((r) => ({
      id: r.id,
      status: r.status,
      statusLabel: MEDIATION_STATUS_LABELS[r.status],
      subject: r.subject,
      openedByName: r.opened_by_name,
      respondentName: r.respondent_name,
      createdAt: new Date(r.created_at).toISOString(),
      updatedAt: new Date(r.updated_at).toISOString(),
      messages: Number(r.messages),
    })),
    counts,
    total,
    page,
    pageCount,
  };
}

// ---------------------------------------------------------------------------------------------
// The file, read by the team during a mediation

export type MediatedFile = {
  id: string;
  stageLabel: string;
  mandateALabel: string;
  mandateBLabel: string;
  timeline: { id: string; label: string; detail: string | null; at: string; actorName: string | null }[];
  documents: { id: string; name: string; typeLabel: string; sizeBytes: number; uploaderName: string; sharedAt: string; withdrawnAt: string | null }[];
};

/**
 * A file's timeline and documents list for the team, only while a mediation of that file is
 * open or in progress; a 404 otherwise (the same answer as for an unknown file).
 */
export async function getMediatedFile(fileId: string): Promise<MediatedFile> {
  if (!isUuid(fileId)) fileNotFound();
  const [f] = await queryRows<FileRow>(sql`
    select f.id, f.stage::text as stage, f.mandate_a_label, f.mandate_b_label from collaboration_files f
    where f.id = ${fileId}::uuid and exists (select 1 from mediations m where m.file_id = f.id and m.status in ('open', 'in_progress'))`);
  if (!f) fileNotFound();
  const [events, documents] = await Promise.all([
    queryRows<EventRow>(sql`select id, kind, actor_name, details, created_at from collaboration_events where file_id = ${f.id}::uuid order by created_at, id`),
    queryRows<DocumentRow>(sql`
      select d.id, d.name, d.content_type, d.size_bytes, d.created_at, d.withdrawn_at, p.first_name, p.last_name
      from collaboration_documents d left join profiles p on p.id = d.uploader_profile_id
      where d.file_id = ${f.id}::uuid order by d.created_at desc`),
  ]);
  return mediatedFileView(f, events, documents);
}

type FileRow = { id: string; stage: Stage; mandate_a_label: string; mandate_b_label: string };
type EventRow = { id: string; kind: string; actor_name: string | null; details: unknown; created_at: Date | string };
type DocumentRow = {
  id: string;
  name: string;
  content_type: string;
  size_bytes: number | string;
  created_at: Date | string;
  withdrawn_at: Date | string | null;
  first_name: string | null;
  last_name: string | null;
};

function mediatedFileView(f: FileRow, events: EventRow[], documents: DocumentRow[]): MediatedFile {
  const typeLabel = (contentType: string) => Object.values(DOCUMENT_FORMATS).find((t) => t.contentType === contentType)?.extension.toUpperCase() ?? "Fichier";
  return {
    id: f.id,
    stageLabel: STAGE_LABELS[f.stage],
    mandateALabel: f.mandate_a_label,
    mandateBLabel: f.mandate_b_label,
    timeline: events.map((e) => {
      const details = (typeof e.details === "string" ? JSON.parse(e.details) : e.details) as Record<string, unknown> | null;
      const { label, detail } = timelineLabel(e.kind, details);
      return { id: e.id, label, detail, at: new Date(e.created_at).toISOString(), actorName: e.actor_name };
    }),
    documents: documents.map((d) => ({
      id: d.id,
      name: d.name,
      typeLabel: typeLabel(d.content_type),
      sizeBytes: Number(d.size_bytes),
      uploaderName: d.first_name ? `${d.first_name} ${d.last_name ?? ""}`.trim() : "Membre ayant quitté le réseau",
      sharedAt: new Date(d.created_at).toISOString(),
      withdrawnAt: d.withdrawn_at ? new Date(d.withdrawn_at).toISOString() : null,
    })),
  };
}

/** JSON arrives parsed from both drivers; a string is parsed here, in case. */

export type AdminMediation = { mediation: MediationView; file: MediatedFile | null };

/** One mediation for the team, with the file while the mediation is active. */
//
// One statement, as each page's statements are kept few: the mediation, its messages and attachments,
// and, while it is active, the file with its timeline and documents, each list carried as JSON
// in the order the separate reads used (six statements before). Timestamps inside JSON are
// text; the views turn them into the same ISO strings.
export async function getMediationForAdmin(mediationId: string): Promise<AdminMediation> {
  if (!isUuid(mediationId)) mediationNotFound();
  const [row] = await queryRows<
    MediationRow & {
      messages_json: MediationMessageRow[] | string;
      attachments_json: MediationAttachmentRow[] | string;
      file_json: (FileRow & { events: EventRow[]; documents: DocumentRow[] }) | string | null;
    }
  >(sql`
    select ${MEDIATION_COLUMNS},
      (select coalesce(json_agg(json_build_object('id', x.id, 'mediation_id', x.mediation_id, 'body', x.body, 'author_role', x.author_role,
                 'author_profile_id', x.author_profile_id, 'author_name', x.author_name, 'created_at', x.created_at) order by x.created_at, x.id), '[]'::json)
       from mediation_messages x where x.mediation_id = m.id) as messages_json,
      (select coalesce(json_agg(json_build_object('id', a.id, 'mediation_id', a.mediation_id, 'name', a.name, 'size_bytes', a.size_bytes,
                 'uploader_profile_id', a.uploader_profile_id, 'created_at', a.created_at) order by a.created_at, a.id), '[]'::json)
       from mediation_attachments a where a.mediation_id = m.id) as attachments_json,
      (select json_build_object('id', f.id, 'stage', f.stage::text, 'mandate_a_label', f.mandate_a_label, 'mandate_b_label', f.mandate_b_label,
          'events', (select coalesce(json_agg(json_build_object('id', e.id, 'kind', e.kind, 'actor_name', e.actor_name, 'details', e.details,
                       'created_at', e.created_at) order by e.created_at, e.id), '[]'::json)
                     from collaboration_events e where e.file_id = f.id),
          'documents', (select coalesce(json_agg(json_build_object('id', d.id, 'name', d.name, 'content_type', d.content_type, 'size_bytes', d.size_bytes,
                          'created_at', d.created_at, 'withdrawn_at', d.withdrawn_at, 'first_name', p.first_name, 'last_name', p.last_name)
                          order by d.created_at desc), '[]'::json)
                        from collaboration_documents d left join profiles p on p.id = d.uploader_profile_id where d.file_id = f.id))
       from collaboration_files f where f.id = m.file_id and m.status in ('open', 'in_progress')) as file_json
    from mediations m where m.id = ${mediationId}::uuid`);
  if (!row) mediationNotFound();
  const { messages_json, attachments_json, file_json, ...mediationRow } = row;
  const [mediation] = buildMediationViews([mediationRow], jsonValue(messages_json) ?? [], jsonValue(attachments_json) ?? [], { profileId: null });
  if (!mediation.active) return { mediation, file: null };
  const file = jsonValue(file_json);
  if (!file) fileNotFound();
  return { mediation, file: mediatedFileView(file, file.events, file.documents) };
}

// ---------------------------------------------------------------------------------------------
// Commands

const target = (m: MediationRow) => `${m.opened_by_name} / ${m.respondent_name}`;

async function mailBoth(
  tx: Parameters<Parameters<typeof db.transaction>[0]>[0],
  m: MediationRow,
  mail: { title: string; intro: string; lines?: string[]; kind: string; dedupeKey?: string },
) {
  for (const profileId of [m.opened_by, m.respondent_id]) {
    await mailMember(tx, profileId, m.file_id, { ...mail, ...(mail.dedupeKey ? { dedupeKey: `${mail.dedupeKey}:${profileId}` } : {}) });
  }
}

/** ouverte → en cours. */
export async function startMediation(actor: AdminActor, mediationId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const m = await lockMediation(tx, mediationId);
    const move = canMoveMediation(m.status, "in_progress");
    if (!move.ok) refuse(move.message, "conflict");
    await tx.update(mediations).set({ status: "in_progress", updatedAt: new Date() }).where(sql`${mediations.id} = ${m.id}::uuid`);
    await auditMediation(tx, actor.id, "mediation.status", m.id, { target: target(m), from: m.status, to: "in_progress" });
    await mailBoth(tx, m, {
      title: "Votre médiation est en cours",
      intro: "L’équipe du réseau a pris en charge la médiation de votre dossier de rapprochement\u00a0: elle est désormais «\u00a0En cours\u00a0».",
      kind: "mediation-status",
    });
  });
}

/** The team writes in the exchange: both members are told (following their preference). */
export async function postAdminMediationMessage(actor: AdminActor, mediationId: string, body: string): Promise<void> {
  await consumeMessageRate(`admin:${actor.id}`);
  await db.transaction(async (tx) => {
    const m = await lockMediation(tx, mediationId);
    if (!isActive(m.status)) refuse(MEDIATION_MESSAGES.closedForMessages, "conflict");
    await tx.insert(mediationMessages).values({ mediationId: m.id, authorRole: "admin", authorUserId: actor.id, authorName: TEAM_NAME, body, createdAt: sql`clock_timestamp()` });
    await tx.update(mediations).set({ updatedAt: new Date() }).where(sql`${mediations.id} = ${m.id}::uuid`);
    await auditMediation(tx, actor.id, "mediation.message", m.id, { target: target(m) });
    await mailBoth(tx, m, {
      title: "Nouveau message de l’équipe dans votre médiation",
      intro: "L’équipe du réseau a écrit dans la médiation de votre dossier de rapprochement.",
      kind: "mediation-message",
      dedupeKey: `mediation-team-message:${m.id}:${Math.floor(Date.now() / (15 * 60_000))}`,
    });
  });
}

/**
 * The decision: résolue or classée, the written decision, and whether a complaint is upheld
 * against one of the two members (with its kind). Ends the team's access to the file.
 */
export async function decideMediation(actor: AdminActor, mediationId: string, input: MediationDecisionInput): Promise<void> {
  await db.transaction(async (tx) => {
    const m = await lockMediation(tx, mediationId);
    const move = canMoveMediation(m.status, input.outcome);
    if (!move.ok) refuse(move.message, "conflict");
    const against = input.against === "opener" ? m.opened_by : input.against === "respondent" ? m.respondent_id : null;
    const upheld = input.against !== "none";
    await tx
      .update(mediations)
      .set({
        status: input.outcome,
        decision: input.decision,
        decidedBy: actor.id,
        decidedAt: new Date(),
        upheld,
        upheldAgainstId: against,
        breachKind: upheld ? input.breachKind : null,
        updatedAt: new Date(),
      })
      .where(sql`${mediations.id} = ${m.id}::uuid`);
    await appendFileEvent(tx, m.file_id, null, "mediation_decided", { outcome: input.outcome });
    await completeTask(taskKey("mediation_opened", m.id), tx);
    // An upheld complaint weighs on the member's badges at once (Fair Player, Confidentialité),
    // not at the next hourly refresh.
    if (against) await refreshReputation([against], tx);
    await auditMediation(tx, actor.id, "mediation.decide", m.id, {
      target: target(m),
      outcome: input.outcome,
      upheld,
      against: input.against,
      breachKind: upheld ? input.breachKind : null,
    });
    await mailBoth(tx, m, {
      title: `Décision rendue dans votre médiation\u00a0: ${MEDIATION_STATUS_LABELS[input.outcome].toLowerCase()}`,
      intro: "L’équipe du réseau a rendu sa décision dans la médiation de votre dossier de rapprochement.",
      kind: "mediation-decision",
    });
  });
}
