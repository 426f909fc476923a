// The collaboration file of a confirmed connection: opened when the second acceptance
// confirms a connection, listed in "Mes dossiers", and moved through its stages by its two
// members. Each command is one use case: access check under a lock, the write, its timeline
// event, and the counterpart's e-mail in the same transaction.
import { formatDate } from "~/lib/format";
import { sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { collaborationFiles, collaborationMessages } from "~/db/schema";
import { markFileThreadRead } from "~/features/messages/message-reads.server";
import { queryRows, withReusablePlan } from "~/db/query.server";
import { unsubscribeUrl } from "~/features/account/unsubscribe-link.server";
import { pairKey } from "~/features/connections/connection-rules";
import { MANDATE_STATUS_LABELS, MANDATE_TYPE_LABELS, type MandateStatus, type MandateType } from "~/features/mandates/mandate-rules";
import { getEnv } from "~/lib/env.server";
import { refreshReputation } from "~/features/trust/reputation.server";
import { RATING_WINDOW_DAYS } from "~/features/trust/reputation-rules";
import { sendNotificationEmail } from "~/lib/mail/render.server";
import { completeTodo, recordEvent } from "~/features/notifications/notifications.server";
import { EVENT_RULES, eventOfMailKind, type EventKind, todoKey } from "~/features/notifications/event-rules";
import { consumeRateLimit, RATE_LIMITS } from "~/lib/rate-limit.server";
import {
  ABANDON_REASON_LABELS,
  abandonTextRequired,
  AMOUNT_BAND_LABELS,
  canAbandon,
  canConfirmClosing,
  canMoveStage,
  canProposeClosing,
  COLLABORATION_MESSAGES,
  fileReference,
  fileUrl,
  isClosed,
  pendingAction,
  STAGE_LABELS,
  STAGES,
  type AbandonReason,
  type AmountBand,
  type PendingAction,
  type Stage,
} from "./collaboration-rules";
import { concludeMandatesOfFile } from "./closings.server";
import { appendFileEvent, fileConflict, readFileAccess, requireFileAccess, withFile, type FileActor } from "./file-access.server";
import { mandateTransition, type MandateCommand } from "./negotiation-rules";
import { timelineLabel } from "./timeline";
import { invalidate } from "~/lib/cache.server";

export const FILES_PAGE_SIZE = 20;


// ---------------------------------------------------------------------------------------------
// Opening

type MandateSideRow = { id: string; profile_id: string; mandate_type: MandateType; client_code: string };

function mandateLabel(m: MandateSideRow): string {
  return `${MANDATE_TYPE_LABELS[m.mandate_type]} «\u00a0${m.client_code}\u00a0»`;
}

/**
 * Opens the file of a connection just confirmed (idempotent: one file per pair of mandates), with
 * the introduction log copied as the start of its timeline. Runs in the caller's transaction.
 */
export async function openCollaborationFile(tx: Db, mandateX: string, mandateY: string): Promise<string> {
  const [aId, bId] = mandateX < mandateY ? [mandateX, mandateY] : [mandateY, mandateX];
  const sides = await queryRows<MandateSideRow>(
    sql`select id, profile_id, mandate_type::text as mandate_type, client_code from mandates where id in (${aId}::uuid, ${bId}::uuid)`,
    tx,
  );
  const a = sides.find((s) => s.id === aId);
  const b = sides.find((s) => s.id === bId);
  if (!a || !b) throw new Error("openCollaborationFile: mandate missing");
  const [opened] = await queryRows<{ id: string }>(sql`select id from collaboration_files where pair_key = ${pairKey(aId, bId)}`, tx);
  if (opened) return opened.id;
  // The year's counter row stays locked until this transaction ends: numbers have no gaps.
  const [counter] = await queryRows<{ year: number; last_number: number }>(
    sql`insert into collaboration_file_counters (year, last_number) values (extract(year from now() at time zone 'Europe/Paris')::integer, 1)
      on conflict (year) do update set last_number = collaboration_file_counters.last_number + 1
      returning year, last_number`,
    tx,
  );
  const [created] = await tx
    .insert(collaborationFiles)
    .values({
      reference: fileReference(Number(counter.year), Number(counter.last_number)),
      pairKey: pairKey(aId, bId),
      mandateAId: aId,
      mandateBId: bId,
      memberAId: a.profile_id,
      memberBId: b.profile_id,
      mandateALabel: mandateLabel(a),
      mandateBLabel: mandateLabel(b),
    })
    .onConflictDoNothing()
    .returning({ id: collaborationFiles.id });
  if (!created) {
    // Opened meanwhile by a transaction that held the counter before this one: the number goes back.
    await tx.execute(sql`update collaboration_file_counters set last_number = last_number - 1 where year = ${counter.year}`);
    const [existing] = await queryRows<{ id: string }>(sql`select id from collaboration_files where pair_key = ${pairKey(aId, bId)}`, tx);
    return existing.id;
  }
  // The introduction log becomes the beginning of the file's timeline.
  await tx.execute(sql`
    insert into collaboration_events (file_id, actor_profile_id, actor_name, kind, details, created_at)
    select ${created.id}::uuid, e.actor_profile_id, nullif(trim(coalesce(p.first_name, '') || ' ' || coalesce(p.last_name, '')), ''),
      'connection:' || e.event::text, null, e.created_at
    from connection_events e
    join mandate_match_requests r on r.id = e.match_request_id
    left join profiles p on p.id = e.actor_profile_id
    where (r.requester_mandate_id = ${aId}::uuid and r.target_mandate_id = ${bId}::uuid)
       or (r.requester_mandate_id = ${bId}::uuid and r.target_mandate_id = ${aId}::uuid)`);
  await tx.execute(sql`
    insert into collaboration_events (file_id, actor_profile_id, actor_name, kind, details, created_at)
    values (${created.id}::uuid, null, null, 'file_opened', null, clock_timestamp())`);
  return created.id;
}

/**
 * The undertaking signed after the file was opened joins its timeline (with the reveal), so that
 * the file shows the counterpart's client identity exactly when the matching panel does.
 */
export async function recordUndertakingInFile(tx: Db, mandateX: string, mandateY: string, profileId: string): Promise<void> {
  await tx.execute(sql`
    insert into collaboration_events (file_id, actor_profile_id, actor_name, kind, created_at)
    select f.id, p.id, trim(p.first_name || ' ' || p.last_name), k.kind, clock_timestamp()
    from collaboration_files f
    cross join (values ('connection:undertaking_signed', 1), ('connection:revealed', 2)) as k(kind, n)
    join profiles p on p.id = ${profileId}::uuid
    where f.pair_key = ${pairKey(mandateX, mandateY)}
    order by k.n`);
  await tx.execute(sql`update collaboration_files set last_activity_at = clock_timestamp() where pair_key = ${pairKey(mandateX, mandateY)}`);
}

// ---------------------------------------------------------------------------------------------
// "Mes dossiers"

export type FileListItem = {
  id: string;
  reference: string;
  stage: Stage;
  stageLabel: string;
  counterpartName: string;
  counterpartCompany: string | null;
  myMandateLabel: string;
  theirMandateLabel: string;
  lastActivityAt: string;
  unread: number;
  pending: PendingAction;
};

export type FileList = { items: FileListItem[]; total: number; page: number; pageCount: number; awaiting: number };

type ListRow = {
  id: string;
  reference: string;
  stage: Stage;
  side: "a" | "b";
  counterpart_first: string | null;
  counterpart_last: string | null;
  counterpart_company: string | null;
  my_label: string;
  their_label: string;
  closing_proposed_by: string | null;
  last_activity_at: Date | string;
  unread: number | string;
  awaiting_signature: boolean;
  total: number | string;
};

export const GONE_MEMBER_NAME = "Membre ayant quitté le réseau";

/** A member's name as the file shows it, or GONE_MEMBER_NAME once the member has left. */
export function memberNameOrGone(first: string | null | undefined, last: string | null | undefined): string {
  return first ? `${first} ${last ?? ""}`.trim() : GONE_MEMBER_NAME;
}

/** The actor's files, newest activity first, with what awaits them in each. */
export async function listMyFiles(actor: Pick<FileActor, "profileId">, page = 1): Promise<FileList> {
  const p = Math.max(1, Math.min(Math.floor(page) || 1, 10_000));
  const me = sql`${actor.profileId}::uuid`;
  // One branch per side, each on its own index (member_x_id, last_activity_at desc). Keyed by
  // the member: prepared, its plan reused.
  const rows = await queryRows<ListRow>(withReusablePlan(sql`
    with mine as (
      select f.*, 'a' as side, f.member_b_id as other_id from collaboration_files f where f.member_a_id = ${me}
      union all
      select f.*, 'b' as side, f.member_a_id as other_id from collaboration_files f where f.member_b_id = ${me}
    ), counted as (select count(*) as total from mine)
    select m.id, m.reference, m.stage::text as stage, m.side, o.first_name as counterpart_first, o.last_name as counterpart_last,
      o.company as counterpart_company,
      case when m.side = 'a' then m.mandate_a_label else m.mandate_b_label end as my_label,
      case when m.side = 'a' then m.mandate_b_label else m.mandate_a_label end as their_label,
      m.closing_proposed_by, m.last_activity_at,
      (select count(*) from collaboration_messages cm
        where cm.file_id = m.id and cm.sender_profile_id is distinct from ${me}
          and not exists (select 1 from message_reads r where r.file_message_id = cm.id and r.profile_id = ${me})) as unread,
      exists (select 1 from fee_agreements fa where fa.file_id = m.id and fa.status = 'pending'
        and not exists (select 1 from fee_agreement_signatures s where s.agreement_id = fa.id and s.profile_id = ${me})) as awaiting_signature,
      counted.total
    from mine m cross join counted
    left join profiles o on o.id = m.other_id
    order by m.last_activity_at desc, m.id
    limit ${FILES_PAGE_SIZE} offset ${(p - 1) * FILES_PAGE_SIZE}`));
  // No row on the first page: no file at all (the count is needed only past the last page).
  const total = rows.length ? Number(rows[0].total) : p === 1 ? 0 : await countMyFiles(actor);
  const items = rows.map((r): FileListItem => {
    const unread = Number(r.unread);
    return {
      id: r.id,
      reference: r.reference,
      stage: r.stage,
      stageLabel: STAGE_LABELS[r.stage],
      counterpartName: memberNameOrGone(r.counterpart_first, r.counterpart_last),
      counterpartCompany: r.counterpart_company,
      myMandateLabel: r.my_label,
      theirMandateLabel: r.their_label,
      lastActivityAt: new Date(r.last_activity_at).toISOString(),
      unread,
      pending: pendingAction({
        stage: r.stage,
        closingProposedBy: r.closing_proposed_by,
        actorProfileId: actor.profileId,
        unreadMessages: unread,
        agreementAwaitingMySignature: r.awaiting_signature,
      }),
    };
  });
  return {
    items,
    total,
    page: p,
    pageCount: Math.max(1, Math.ceil(total / FILES_PAGE_SIZE)),
    awaiting: items.filter((i) => i.pending !== null).length,
  };
}

async function countMyFiles(actor: Pick<FileActor, "profileId">): Promise<number> {
  const [row] = await queryRows<{ n: number | string }>(sql`
    select (select count(*) from collaboration_files where member_a_id = ${actor.profileId}::uuid)
         + (select count(*) from collaboration_files where member_b_id = ${actor.profileId}::uuid) as n`);
  return Number(row?.n ?? 0);
}

// ---------------------------------------------------------------------------------------------
// One file

export type TimelineEntry = { id: string; kind: string; label: string; at: string; actorName: string | null; byMe: boolean; detail: string | null };
export type FileMessage = { id: string; body: string; at: string; byMe: boolean; senderName: string; unread: boolean };

export type FileView = {
  id: string;
  reference: string;
  stage: Stage;
  stageLabel: string;
  createdAt: string;
  lastActivityAt: string;
  /** The actor's mandate, with its status (null once deleted) and the commands it allows now. */
  myMandate: {
    id: string | null;
    label: string;
    status: MandateStatus | null;
    statusLabel: string | null;
    commands: MandateCommand[];
  };
  theirMandate: { id: string | null; label: string };
  /** « Proposer comme deal certifié »: the actor already did, for this file. */
  dealProposed: boolean;
  counterpart: { gone: boolean; name: string; company: string | null; profession: string | null; email: string | null };
  closing: {
    proposedByMe: boolean;
    proposedByThem: boolean;
    closingDate: string | null;
    amountBandLabel: string | null;
    concludedAt: string | null;
  };
  abandon: { reasonLabel: string; text: string | null; at: string } | null;
  /** The counterpart's client identity: shown only once the actor signed the undertaking. */
  client: { name: string; address: string } | null;
  undertakingSigned: boolean;
  /** The working stages the file has been moved to, for the stepper. */
  stagesReached: Stage[];
  timeline: TimelineEntry[];
  messages: FileMessage[];
  unread: number;
  /** The newest message shown: marking read stops there (a message arriving meanwhile stays new). */
  lastMessageId: string | null;
};

type ViewRow = {
  id: string;
  reference: string;
  stage: Stage;
  created_at: Date | string;
  last_activity_at: Date | string;
  member_a_id: string | null;
  member_b_id: string | null;
  mandate_a_id: string | null;
  mandate_b_id: string | null;
  mandate_a_label: string;
  mandate_b_label: string;
  closing_proposed_by: string | null;
  closing_date: string | null;
  amount_band: AmountBand | null;
  concluded_at: Date | string | null;
  abandon_reason: AbandonReason | null;
  abandon_text: string | null;
  abandoned_at: Date | string | null;
};

type FileViewExtras = {
  other: { first_name: string; last_name: string; company: string; profession: string; email: string } | null;
  my_status: MandateStatus | null;
  events: { id: string; kind: string; actor_profile_id: string | null; actor_name: string | null; details: unknown; created_at: string }[];
  messages: { id: string; body: string; sender_profile_id: string | null; created_at: string; read: boolean }[];
  client: { client_name: string; client_address: string } | null;
};

const iso = (v: Date | string) => new Date(v).toISOString();

/** Everything the file page shows, for one of its two members (404 for anyone else). */
export async function getFileView(actor: Pick<FileActor, "profileId">, fileId: string): Promise<FileView> {
  const access = await requireFileAccess(db, actor, fileId);
  const me = actor.profileId;
  const mine = access.side === "a";
  const myMandateId = access.myMandateId;
  // One statement: the file, the counterpart, the actor's mandate status, the timeline, the
  // messages, and the counterpart's client once the actor signed the undertaking. Keyed by the
  // file and the member: prepared, its plan reused.
  const [f] = await queryRows<ViewRow & FileViewExtras>(withReusablePlan(sql`
    select f.id, f.reference, f.stage::text as stage, f.created_at, f.last_activity_at, f.member_a_id, f.member_b_id, f.mandate_a_id, f.mandate_b_id,
      f.mandate_a_label, f.mandate_b_label, f.closing_proposed_by, f.closing_date::text as closing_date, f.amount_band::text as amount_band,
      f.concluded_at, f.abandon_reason::text as abandon_reason, f.abandon_text, f.abandoned_at,
      case when o.id is null then null else json_build_object('first_name', o.first_name, 'last_name', o.last_name, 'company', o.company,
        'profession', o.profession::text, 'email', ou.email) end as other,
      (select m.status::text from mandates m where m.id = ${myMandateId}::uuid and m.profile_id = ${me}::uuid) as my_status,
      coalesce((select json_agg(e order by e.created_at, e.id) from (
        select id, kind, actor_profile_id, actor_name, details, created_at from collaboration_events where file_id = f.id) e), '[]'::json) as events,
      coalesce((select json_agg(m order by m.created_at, m.id) from (
        select cm.id, cm.body, cm.sender_profile_id, cm.created_at,
          exists (select 1 from message_reads r where r.file_message_id = cm.id and r.profile_id = ${me}::uuid) as read
        from collaboration_messages cm where cm.file_id = f.id order by cm.created_at, cm.id limit 500) m), '[]'::json) as messages,
      (select json_build_object('client_name', c.client_name, 'client_address', c.client_address) from mandates c
        where c.id = ${access.theirMandateId}::uuid
          and exists (select 1 from collaboration_events ev
            where ev.file_id = f.id and ev.kind = 'connection:undertaking_signed' and ev.actor_profile_id = ${me}::uuid)) as client
    from collaboration_files f
    left join (profiles o join "user" ou on ou.id = o.user_id) on o.id = ${access.counterpartId}::uuid
    where f.id = ${access.id}::uuid`));
  const other = f.other ?? undefined;
  const events = f.events;
  const messages = f.messages;
  const timeline = events.map((e): TimelineEntry => {
    const details = (typeof e.details === "string" ? JSON.parse(e.details) : e.details) as Record<string, unknown> | null;
    const { label, detail } = timelineLabel(e.kind, details);
    return { id: e.id, kind: e.kind, label, detail, at: iso(e.created_at), actorName: e.actor_name, byMe: e.actor_profile_id === actor.profileId };
  });
  const undertakingSigned = events.some((e) => e.kind === "connection:undertaking_signed" && e.actor_profile_id === actor.profileId);
  const dealProposed = events.some((e) => e.kind === "deal_proposed" && e.actor_profile_id === actor.profileId);
  const stagesReached = events.flatMap((e) => {
    if (e.kind !== "stage_changed") return [];
    const to: unknown = ((typeof e.details === "string" ? JSON.parse(e.details) : e.details) as { to?: unknown } | null)?.to;
    return STAGES.find((s) => s === to) ?? [];
  });
  const myStatus = f.my_status;
  const commands = myStatus
    ? (["negotiate", "resume", "conclude"] as const).filter((c) => mandateTransition(c, myStatus, f.stage).ok)
    : [];
  const client: FileView["client"] = f.client ? { name: f.client.client_name, address: f.client.client_address } : null;
  const otherName = other ? `${other.first_name} ${other.last_name}` : GONE_MEMBER_NAME;
  const fileMessages = messages.map((m): FileMessage => {
    const byMe = m.sender_profile_id === actor.profileId;
    return {
      id: m.id,
      body: m.body,
      at: iso(m.created_at),
      byMe,
      senderName: byMe ? "Vous" : otherName,
      unread: !byMe && !m.read,
    };
  });
  return {
    id: f.id,
    reference: f.reference,
    stage: f.stage,
    stageLabel: STAGE_LABELS[f.stage],
    createdAt: iso(f.created_at),
    lastActivityAt: iso(f.last_activity_at),
    myMandate: {
      id: myMandateId,
      label: mine ? f.mandate_a_label : f.mandate_b_label,
      status: myStatus,
      statusLabel: myStatus ? MANDATE_STATUS_LABELS[myStatus] : null,
      commands,
    },
    dealProposed,
    theirMandate: { id: mine ? f.mandate_b_id : f.mandate_a_id, label: mine ? f.mandate_b_label : f.mandate_a_label },
    counterpart: {
      gone: !other,
      name: otherName,
      company: other?.company ?? null,
      profession: other?.profession ?? null,
      email: other?.email ?? null,
    },
    closing: {
      proposedByMe: f.closing_proposed_by === actor.profileId,
      proposedByThem: f.closing_proposed_by !== null && f.closing_proposed_by !== actor.profileId,
      closingDate: f.closing_date,
      amountBandLabel: f.amount_band ? AMOUNT_BAND_LABELS[f.amount_band] : null,
      concludedAt: f.concluded_at ? iso(f.concluded_at) : null,
    },
    abandon:
      f.abandon_reason && f.abandoned_at
        ? { reasonLabel: ABANDON_REASON_LABELS[f.abandon_reason], text: f.abandon_text, at: iso(f.abandoned_at) }
        : null,
    client,
    undertakingSigned,
    stagesReached,
    timeline,
    messages: fileMessages,
    unread: fileMessages.filter((m) => m.unread).length,
    lastMessageId: fileMessages.length ? fileMessages[fileMessages.length - 1].id : null,
  };
}

/**
 * The actor opened the file's messages, up to `upTo` (the newest shown; all when null): they are
 * read, in « Messages » too (one read state).
 */
export async function markFileRead(actor: Pick<FileActor, "profileId">, fileId: string, upTo: string | null = null): Promise<void> {
  const access = await requireFileAccess(db, actor, fileId);
  await markFileThreadRead(actor.profileId, access, upTo);
}

// ---------------------------------------------------------------------------------------------
// Commands

function refuseWhenClosed(stage: Stage) {
  if (isClosed(stage)) fileConflict(COLLABORATION_MESSAGES.closed);
}

/** Moves a working file one stage forward or back. */
export async function moveStage(actor: FileActor, fileId: string, to: Stage): Promise<void> {
  await withFile(actor, fileId, async (tx, file) => {
    refuseWhenClosed(file.stage);
    if (!canMoveStage(file.stage, to)) fileConflict(COLLABORATION_MESSAGES.stageNotAllowed);
    // Moving back below the offer withdraws a pending closing proposal.
    const keepsProposal = canProposeClosing(to);
    await tx.execute(sql`update collaboration_files set stage = ${to}::collaboration_stage,
      ${keepsProposal ? sql`` : sql`closing_proposed_by = null, closing_proposed_at = null, closing_date = null, amount_band = null,`}
      updated_at = now() where id = ${file.id}::uuid`);
    await appendFileEvent(tx, file.id, actor, "stage_changed", { from: file.stage, to });
    if (!keepsProposal) await completeTodo(todoKey("closing_proposed", file.id), tx);
    await notifyCounterpart(tx, file.counterpartId, file.id, {
      title: "Un dossier de rapprochement change d’étape",
      intro: `${actor.firstName} ${actor.lastName} a passé votre dossier de rapprochement commun à l’étape «\u00a0${STAGE_LABELS[to]}\u00a0».`,
      line: "L’historique du dossier garde la trace de chaque étape.",
      kind: "collaboration-stage",
    });
  });
}

/** One member proposes "Conclu" with the signing date and an optional amount band. */
export async function proposeClosing(actor: FileActor, fileId: string, input: { closingDate: string; amountBand: AmountBand | null }): Promise<void> {
  await withFile(actor, fileId, async (tx, file) => {
    refuseWhenClosed(file.stage);
    if (!canProposeClosing(file.stage)) fileConflict(COLLABORATION_MESSAGES.closingNotProposable);
    if (file.closingProposedBy === actor.profileId) fileConflict(COLLABORATION_MESSAGES.closingAlreadyProposed);
    // When the other member had proposed, this counter-proposal (another date or band) replaces theirs.
    await completeTodo(todoKey("closing_proposed", file.id), tx);
    await tx.execute(sql`update collaboration_files set closing_proposed_by = ${actor.profileId}::uuid, closing_proposed_at = now(),
      closing_date = ${input.closingDate}::date, amount_band = ${input.amountBand}::amount_band, updated_at = now()
      where id = ${file.id}::uuid`);
    await appendFileEvent(tx, file.id, actor, "closing_proposed", {
      closingDate: input.closingDate,
      amountBand: input.amountBand,
    });
    await notifyCounterpart(tx, file.counterpartId, file.id, {
      title: "Conclusion d’un dossier à confirmer",
      intro: `${actor.firstName} ${actor.lastName} indique que l’opération de votre dossier de rapprochement commun a été signée le ${formatDate(input.closingDate)}.`,
      line: "Confirmez la conclusion depuis le dossier pour qu’elle compte dans vos statistiques.",
      kind: "collaboration-closing",
    });
  });
}

function membersOf(actor: FileActor, file: { counterpartId: string | null }): string[] {
  return file.counterpartId ? [actor.profileId, file.counterpartId] : [actor.profileId];
}

/** The other member confirms the proposed closing: the file is concluded. */
export async function confirmClosing(actor: FileActor, fileId: string): Promise<void> {
  await withFile(actor, fileId, async (tx, file) => {
    refuseWhenClosed(file.stage);
    if (file.closingProposedBy === actor.profileId) fileConflict(COLLABORATION_MESSAGES.closingAlreadyProposed);
    if (!canConfirmClosing(file.stage, { proposedBy: file.closingProposedBy }, actor.profileId)) {
      fileConflict(COLLABORATION_MESSAGES.closingNothingToConfirm);
    }
    invalidate("collaboration_files");
    await tx.execute(sql`update collaboration_files set stage = 'concluded', concluded_at = now(), updated_at = now() where id = ${file.id}::uuid`);
    await appendFileEvent(tx, file.id, actor, "closing_confirmed", null);
    await completeTodo(todoKey("closing_proposed", file.id), tx);
    // The member who proposed « Conclu » hears that the other confirmed it.
    await notifyCounterpart(tx, file.closingProposedBy, file.id, {
      title: "La conclusion de votre dossier est confirmée",
      intro: `${actor.firstName} ${actor.lastName} a confirmé la conclusion de votre dossier de rapprochement commun.`,
      line: "Le dossier est conclu\u00a0: il compte désormais dans vos statistiques.",
      kind: "collaboration-closing-confirmed",
    });
    // Both mandates conclude with their file: they leave the matching now.
    await concludeMandatesOfFile(tx, file.id);
    // The files concluded feed both members' reputation.
    await refreshReputation(membersOf(actor, file), tx);
    await openRatings(tx, file.id, actor, file);
  });
}

/**
 * The file ended: each member is asked to rate the other (a to-do each, done by their rating or
 * when the window closes). Nothing when the other member has left: there is no one to rate.
 */
async function openRatings(tx: Db, fileId: string, actor: FileActor, file: { counterpartId: string | null }): Promise<void> {
  if (!file.counterpartId) return;
  for (const member of membersOf(actor, file)) {
    await notifyCounterpart(tx, member, fileId, {
      title: "Évaluez votre confrère",
      intro: `Votre dossier de rapprochement est terminé\u00a0: vous avez ${RATING_WINDOW_DAYS}\u00a0jours pour évaluer la collaboration avec votre confrère.`,
      line: "L’évaluation est en double aveugle\u00a0: chacune devient visible quand les deux sont données, ou à la fin du délai.",
      kind: "rating-open",
      dedupeKey: `rating-open:${fileId}:${member}`,
    });
  }
}

/** The proposer withdraws their closing proposal before it is confirmed. */
export async function cancelClosingProposal(actor: FileActor, fileId: string): Promise<void> {
  await withFile(actor, fileId, async (tx, file) => {
    refuseWhenClosed(file.stage);
    if (file.closingProposedBy !== actor.profileId) fileConflict(COLLABORATION_MESSAGES.closingNothingToConfirm);
    await tx.execute(sql`update collaboration_files set closing_proposed_by = null, closing_proposed_at = null, closing_date = null,
      amount_band = null, updated_at = now() where id = ${file.id}::uuid`);
    await appendFileEvent(tx, file.id, actor, "closing_withdrawn", null);
    await completeTodo(todoKey("closing_proposed", file.id), tx);
  });
}

/** "Abandonné", with a reason from the fixed list ("Autre motif" needs a text). */
export async function abandonFile(actor: FileActor, fileId: string, input: { reason: AbandonReason; text: string | null }): Promise<void> {
  if (abandonTextRequired(input.reason) && !input.text?.trim()) fileConflict(COLLABORATION_MESSAGES.abandonTextRequired, "invalid");
  await withFile(actor, fileId, async (tx, file) => {
    refuseWhenClosed(file.stage);
    if (!canAbandon(file.stage)) fileConflict(COLLABORATION_MESSAGES.stageNotAllowed);
    const text = input.text?.trim() || null;
    await tx.execute(sql`update collaboration_files set stage = 'abandoned', abandon_reason = ${input.reason}::abandon_reason,
      abandon_text = ${text}, abandoned_at = now(), closing_proposed_by = null, updated_at = now() where id = ${file.id}::uuid`);
    await appendFileEvent(tx, file.id, actor, "abandoned", { reason: input.reason, text });
    await completeTodo(todoKey("closing_proposed", file.id), tx);
    await refreshReputation(membersOf(actor, file), tx);
    await notifyCounterpart(tx, file.counterpartId, file.id, {
      title: "Un dossier de rapprochement a été abandonné",
      intro: `${actor.firstName} ${actor.lastName} a marqué votre dossier de rapprochement commun comme abandonné (motif\u00a0: ${ABANDON_REASON_LABELS[input.reason].toLowerCase()}).`,
      line: "Le dossier reste consultable, avec son historique et ses documents.",
      kind: "collaboration-abandoned",
    });
    await openRatings(tx, file.id, actor, file);
  });
}

/** A message in the file; the counterpart gets an e-mail when they want message e-mails. */
export async function postFileMessage(actor: FileActor, fileId: string, body: string): Promise<void> {
  const text = body.trim();
  if (!text) fileConflict(COLLABORATION_MESSAGES.messageEmpty, "invalid");
  if (text.length > 5000) fileConflict(COLLABORATION_MESSAGES.messageTooLong, "invalid");
  const limit = await consumeRateLimit(`file-message:${actor.profileId}`, RATE_LIMITS.messageAccount);
  if (!limit.allowed) fileConflict(COLLABORATION_MESSAGES.tooManyMessages, "rate-limited");
  await withFile(actor, fileId, async (tx, file) => {
    if (!file.counterpartId) fileConflict(COLLABORATION_MESSAGES.counterpartGone);
    await tx.insert(collaborationMessages).values({ fileId: file.id, senderProfileId: actor.profileId, body: text, createdAt: sql`clock_timestamp()` });
    // Writing in the thread answers it: the sender has read what came before.
    await tx.execute(sql`update collaboration_files set last_activity_at = clock_timestamp() where id = ${file.id}::uuid`);
    await markFileThreadRead(actor.profileId, file, null, tx);
    await notifyCounterpart(tx, file.counterpartId, file.id, {
      title: "Nouveau message dans un dossier de rapprochement",
      intro: `${actor.firstName} ${actor.lastName} vous a écrit dans votre dossier de rapprochement commun.`,
      line: "Pour préserver la confidentialité, le message se lit dans le dossier, sur la plateforme.",
      kind: "collaboration-message",
      // One e-mail per unread burst: the key changes once the recipient has read the file.
      dedupeKey: `collaboration-message:${file.id}:${file.counterpartId}:${Math.floor(Date.now() / (15 * 60_000))}`,
    });
  });
}

// ---------------------------------------------------------------------------------------------
// E-mails: they name the file and the sender, never a client.


/**
 * Tells the file's other member: the notification (and its to-do) always, the e-mail now only when
 * they want this kind at once (otherwise the digest carries it); shared by the file's areas.
 */
export async function notifyCounterpart(
  tx: Db,
  counterpartId: string | null,
  fileId: string,
  mail: { title: string; intro: string; line: string; kind: string; event?: EventKind; dedupeKey?: string },
): Promise<void> {
  if (!counterpartId) return;
  const event = mail.event ?? eventOfMailKind(mail.kind, "stage_changed");
  const todo = EVENT_RULES[event].todo ? todoKey(event, fileId) : undefined;
  const frequency = await recordEvent(tx, counterpartId, event, { title: mail.title, body: mail.intro, link: fileUrl(fileId) }, {
    whileUnread: event === "file_message",
    ...(todo ? { todo } : {}),
  });
  if (frequency !== "immediate") return;
  const [r] = await queryRows<{ email: string; reference: string | null }>(
    sql`select u.email, (select f.reference from collaboration_files f where f.id = ${fileId}::uuid) as reference
      from profiles p join "user" u on u.id = p.user_id where p.id = ${counterpartId}::uuid`,
    tx,
  );
  if (!r) return;
  await sendNotificationEmail(
    r.email,
    {
      title: r.reference ? `${mail.title} (${r.reference})` : mail.title,
      intro: mail.intro,
      lines: r.reference ? [`Dossier ${r.reference}.`, mail.line] : [mail.line],
      ctaLabel: "Ouvrir le dossier",
      ctaUrl: `${getEnv().APP_URL}${fileUrl(fileId)}`,
      footer: "Vous recevez cet e-mail car vous êtes membre d’un dossier de rapprochement sur la plateforme.",
      unsubscribeUrl: unsubscribeUrl(counterpartId, EVENT_RULES[event].email),
    },
    { kind: mail.kind, tx, ...(mail.dedupeKey ? { dedupeKey: mail.dedupeKey } : {}) },
  );
}

// ---------------------------------------------------------------------------------------------
// The header of every page of a file

export type FileHeader = {
  id: string;
  reference: string;
  stage: Stage;
  stageLabel: string;
  counterpartName: string;
  counterpartCompany: string | null;
  myMandateLabel: string;
  theirMandateLabel: string;
};

export async function getFileHeader(actor: Pick<FileActor, "profileId">, fileId: string): Promise<FileHeader> {
  const access = await readFileAccess(actor, fileId);
  const other = access.counterpart;
  return {
    id: access.id,
    reference: access.reference,
    stage: access.stage,
    stageLabel: STAGE_LABELS[access.stage],
    counterpartName: memberNameOrGone(other.firstName, other.lastName),
    counterpartCompany: other.company,
    myMandateLabel: access.myMandateLabel,
    theirMandateLabel: access.theirMandateLabel,
  };
}
