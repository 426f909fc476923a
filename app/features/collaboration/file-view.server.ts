// One file as its member reads it: the overview (stage, counterpart, client once the undertaking is
// signed, timeline, messages) and the header of every page of the file.
import { sql, type SQL } from "drizzle-orm";
import { db } from "~/db/client.server";
import { queryRows, withReusablePlan } from "~/db/query.server";
import { MANDATE_STATUS_LABELS, type MandateStatus } from "~/features/mandates/mandate-rules";
import { pageWindow } from "~/lib/paging";
import { ABANDON_REASON_LABELS, AMOUNT_BAND_LABELS, STAGE_LABELS, STAGES, type AbandonReason, type AmountBand, type Stage } from "./collaboration-rules";
import { readFileAccess, requireFileAccess, type FileActor } from "./file-access.server";
import { GONE_MEMBER_NAME, memberNameOrGone } from "./member-names";
import { mandateTransition, type MandateCommand } from "./negotiation-rules";
import { TIMELINE_GROUPS, TIMELINE_PAGE_SIZE, timelineGroup, timelineGroupKinds, timelineLabel, type TimelineGroup } from "./timeline";

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
  /** Oldest first: every event, or one page of them (newest page first) when a page was asked for. */
  timeline: TimelineEntry[];
  /** The page shown, when the timeline is paged (the overview); null when it holds every event. */
  timelinePage: { page: number; pageCount: number; total: number; group: TimelineGroup | null; groups: TimelineGroup[] } | null;
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
  event_total: number | string;
  event_kinds: string[] | string | null;
  i_signed: boolean;
  i_proposed_deal: boolean;
  stages_to: string[] | string | null;
  messages: { id: string; body: string; sender_profile_id: string | null; created_at: string; read: boolean }[];
  client: { client_name: string; client_address: string } | null;
};

const iso = (v: Date | string) => new Date(v).toISOString();

/** SQL: the events of one group of the timeline (alias-free: `kind` of collaboration_events). */
function groupFilter(group: TimelineGroup | null): SQL {
  if (!group) return sql``;
  const kinds = timelineGroupKinds(group);
  const list = (k: string[]) => sql.join(k.map((x) => sql`${x}`), sql`, `);
  return "only" in kinds ? sql`and kind in (${list(kinds.only)})` : sql`and kind not in (${list(kinds.except)})`;
}

/** A Postgres array as the driver returns it (an array, or its text form from json). */
const textArray = (v: string[] | string | null): string[] =>
  v === null ? [] : Array.isArray(v) ? v : v.replace(/^\{|\}$/g, "").split(",").filter(Boolean).map((x) => x.replace(/^"|"$/g, ""));

/**
 * Everything the file page shows, for one of its two members (404 for anyone else). With
 * `timeline`, the timeline is one page (TIMELINE_PAGE_SIZE, newest first, of one group or all);
 * without, every event (the evidence export and the closing archive).
 */
export async function getFileView(
  actor: Pick<FileActor, "profileId">,
  fileId: string,
  timeline?: { page: number; group: TimelineGroup | null },
): Promise<FileView> {
  const access = await requireFileAccess(db, actor, fileId);
  const me = actor.profileId;
  const mine = access.side === "a";
  const myMandateId = access.myMandateId;
  const requested = timeline ? Math.min(Math.max(1, Math.floor(timeline.page) || 1), 10_000) : 1;
  const filter = groupFilter(timeline?.group ?? null);
  const total = sql`(select count(*) from collaboration_events where file_id = f.id ${filter})`;
  // A page past the end is the last one (as paging.ts's pageWindow says), computed in the statement.
  const events = timeline
    ? sql`coalesce((select json_agg(e order by e.created_at, e.id) from (
        select id, kind, actor_profile_id, actor_name, details, created_at from collaboration_events where file_id = f.id ${filter}
        order by created_at desc, id desc limit ${TIMELINE_PAGE_SIZE}
        offset ${TIMELINE_PAGE_SIZE} * (least(${requested}, greatest(1, ceil(${total}::numeric / ${TIMELINE_PAGE_SIZE})))::int - 1)) e), '[]'::json)`
    : sql`coalesce((select json_agg(e order by e.created_at, e.id) from (
        select id, kind, actor_profile_id, actor_name, details, created_at from collaboration_events where file_id = f.id) e), '[]'::json)`;
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
      ${events} as events, ${total} as event_total,
      (select array_agg(distinct kind) from collaboration_events where file_id = f.id) as event_kinds,
      exists (select 1 from collaboration_events where file_id = f.id and kind = 'connection:undertaking_signed' and actor_profile_id = ${me}::uuid) as i_signed,
      exists (select 1 from collaboration_events where file_id = f.id and kind = 'deal_proposed' and actor_profile_id = ${me}::uuid) as i_proposed_deal,
      (select array_agg(details->>'to' order by created_at, id) from collaboration_events where file_id = f.id and kind = 'stage_changed') as stages_to,
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
  const messages = f.messages;
  const timelineEntries = f.events.map((e): TimelineEntry => {
    const details = (typeof e.details === "string" ? JSON.parse(e.details) : e.details) as Record<string, unknown> | null;
    const { label, detail } = timelineLabel(e.kind, details);
    return { id: e.id, kind: e.kind, label, detail, at: iso(e.created_at), actorName: e.actor_name, byMe: e.actor_profile_id === actor.profileId };
  });
  // Read over every event, whatever page of the timeline is shown.
  const undertakingSigned = f.i_signed === true;
  const dealProposed = f.i_proposed_deal === true;
  const stagesReached = textArray(f.stages_to).flatMap((to) => STAGES.find((s) => s === to) ?? []);
  const eventTotal = Number(f.event_total);
  const groups = new Set(textArray(f.event_kinds).map(timelineGroup));
  const timelinePage: FileView["timelinePage"] = timeline
    ? {
        ...(({ page, pageCount, total }) => ({ page, pageCount, total }))(pageWindow(requested, eventTotal, TIMELINE_PAGE_SIZE)),
        group: timeline.group,
        groups: (Object.keys(TIMELINE_GROUPS) as TimelineGroup[]).filter((g) => groups.has(g)),
      }
    : null;
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
    timeline: timelineEntries,
    timelinePage,
    messages: fileMessages,
    unread: fileMessages.filter((m) => m.unread).length,
    lastMessageId: fileMessages.length ? fileMessages[fileMessages.length - 1].id : null,
  };
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
