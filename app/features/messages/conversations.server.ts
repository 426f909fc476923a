// The « Messages » view: one list of conversations — with a peer
// (internal messages, both ways), of a collaboration file (its thread), or a single message that
// cannot be answered in the app (a visitor's) — newest activity first, with unread marks, views
// and a search; one thread per conversation; one read state (message-reads.server.ts) that the
// file page shares. Every statement is scoped by the acting member: another member's
// conversation is a 404. Bodies leave the server after the freemium rule (inbox-rules.ts); a
// file's thread is the confirmed connection's working space and is never limited.
import { sql } from "drizzle-orm";
import { can } from "~/auth/permissions";
import { queryRows, withReusablePlan } from "~/db/query.server";
import { memberNameOrGone } from "~/features/collaboration/member-names";
import { readFileAccess } from "~/features/collaboration/file-access.server";
import { MESSAGE_PREVIEW_LENGTH, messagePreview } from "~/lib/format";
import {
  type ConversationKind,
  type ConversationRef,
  type ConversationView,
  conversationKey,
  likePattern,
} from "./conversation-rules";
import { messageVisibility, replySubject, type MessageType } from "./inbox-rules";
import { markFileThreadRead, markInboxMessageRead, markPeerMessagesRead } from "./message-reads.server";
import { MESSAGING_ERRORS } from "./messages.schema";
import type { MessageActor } from "./messages.server";
import { AppError } from "~/lib/errors/app-error";

export const CONVERSATIONS_PAGE_SIZE = 20;
/** The newest messages of a thread shown at once. */
export const THREAD_LIMIT = 200;

export type ConversationItem = {
  key: string;
  kind: ConversationKind;
  /** The counterpart's name (a peer, a visitor) or the file's reference for a file. */
  title: string;
  /** The counterpart's company, or for a file the other member's name. */
  subtitle: string | null;
  subject: string | null;
  lastAt: string;
  lastByMe: boolean;
  /** The last message's beginning, after the freemium rule; null when none of it may be shown. */
  preview: string | null;
  limited: boolean;
  unread: number;
};

export type ConversationPage = {
  items: ConversationItem[];
  total: number;
  page: number;
  pageCount: number;
  /** Conversations with something unread, over every view (not the search). */
  unreadConversations: number;
};

type ListRow = {
  key: string;
  kind: ConversationKind;
  id: string;
  created_at: Date | string;
  by_me: boolean;
  subject: string | null;
  sender_name: string | null;
  sender_email: string | null;
  sender_id: string | null;
  message_type: MessageType | "file";
  head: string;
  unread: number | string;
  total: number | string;
  other_first: string | null;
  other_last: string | null;
  other_company: string | null;
  reference: string | null;
};

const iso = (v: Date | string) => new Date(v).toISOString();

/**
 * Every message the member sent or received, one row each with its conversation's key: the
 * inbox (received), the internal messages they sent, and the threads of their files. `search`
 * (a LIKE pattern, or null) is matched against what the member may read: a freemium member's
 * search skips the bodies of inbox messages.
 */
function memberMessages(me: string, full: boolean, pattern: string | null) {
  const hay = (text: ReturnType<typeof sql>) => (pattern === null ? sql`false` : sql`f_unaccent(lower(${text})) like f_unaccent(lower(${pattern}))`);
  return sql`
    my_files as (
      select f.id, f.reference, f.member_b_id as other_id from collaboration_files f where f.member_a_id = ${me}::uuid
      union all
      select f.id, f.reference, f.member_a_id as other_id from collaboration_files f where f.member_b_id = ${me}::uuid
    ), items as (
      select case when m.message_type = 'internal' and m.sender_id is not null then 'confrere-' || m.sender_id::text else 'contact-' || m.id::text end as key,
        case when m.message_type = 'internal' and m.sender_id is not null then 'member' else 'contact' end as kind,
        m.id, m.created_at, false as by_me, m.subject, m.sender_name, m.sender_email, m.sender_id, m.message_type::text as message_type,
        left(m.content, ${MESSAGE_PREVIEW_LENGTH + 1}) as head, m.sender_id as other_id, null::uuid as file_id,
        not exists (select 1 from message_reads r where r.message_id = m.id and r.profile_id = ${me}::uuid) as unread,
        ${hay(sql`concat_ws(' ', m.subject, m.sender_name, case when ${full}::boolean then m.content end)`)} as hit
      from messages m where m.recipient_id = ${me}::uuid
      union all
      select 'confrere-' || m.recipient_id::text, 'member', m.id, m.created_at, true, m.subject, null, null, m.sender_id, 'internal',
        left(m.content, ${MESSAGE_PREVIEW_LENGTH + 1}), m.recipient_id, null::uuid, false,
        ${hay(sql`concat_ws(' ', m.subject, m.content)`)}
      from messages m where m.sender_id = ${me}::uuid and m.message_type = 'internal'
      union all
      select 'dossier-' || f.id::text, 'file', cm.id, cm.created_at, coalesce(cm.sender_profile_id = ${me}::uuid, false), null, null, null,
        cm.sender_profile_id, 'file', left(cm.body, ${MESSAGE_PREVIEW_LENGTH + 1}), f.other_id, f.id,
        cm.sender_profile_id is distinct from ${me}::uuid
          and not exists (select 1 from message_reads r where r.file_message_id = cm.id and r.profile_id = ${me}::uuid),
        ${hay(sql`concat_ws(' ', f.reference, cm.body)`)}
      from collaboration_messages cm join my_files f on f.id = cm.file_id
    )`;
}

/** The member's conversations, newest activity first, one page, in a view, matching a search. */
export async function listConversations(
  actor: MessageActor,
  options: { view?: ConversationView; search?: string; page?: number } = {},
): Promise<ConversationPage> {
  const me = actor.profile.id;
  const full = can(actor.profile.membershipType, "fullInbox");
  const search = options.search?.trim() || null;
  const pattern = search ? likePattern(search) : null;
  const page = Math.max(1, Math.min(Math.floor(options.page ?? 1) || 1, 10_000));
  const view = options.view ?? "toutes";
  const kinds = view === "dossiers" ? sql`c.kind = 'file'` : view === "confreres" ? sql`c.kind <> 'file'` : sql`true`;
  const nameHit =
    pattern === null
      ? sql`true`
      : sql`(c.hit or f_unaccent(lower(concat_ws(' ', o.first_name, o.last_name, o.company, l.sender_name))) like f_unaccent(lower(${pattern})))`;
  const rows = await queryRows<ListRow>(sql`
    with ${memberMessages(me, full, pattern)},
    convs as (
      select key, min(kind) as kind, count(*) filter (where unread) as unread, max(created_at) as last_at, bool_or(hit) as hit
      from items group by key
    ), last as (
      select distinct on (key) * from items order by key, created_at desc, id desc
    )
    select c.key, c.kind, l.id, l.created_at, l.by_me, l.subject, l.sender_name, l.sender_email, l.sender_id, l.message_type, l.head,
      c.unread, count(*) over () as total, o.first_name as other_first, o.last_name as other_last, o.company as other_company,
      (select mf.reference from my_files mf where mf.id = l.file_id) as reference
    from convs c join last l on l.key = c.key
    left join profiles o on o.id = l.other_id
    where ${kinds} and ${nameHit}
    order by c.last_at desc, c.key
    limit ${CONVERSATIONS_PAGE_SIZE} offset ${(page - 1) * CONVERSATIONS_PAGE_SIZE}`);
  const total = rows.length ? Number(rows[0].total) : 0;
  const items = rows.map((r): ConversationItem => {
    const name = r.other_first ? `${r.other_first} ${r.other_last ?? ""}`.trim() : null;
    let preview: string | null;
    let limited = false;
    if (r.by_me || r.message_type === "file") preview = messagePreview(r.head);
    else {
      const v = messageVisibility(
        { senderId: r.sender_id, senderEmail: r.sender_email ?? "", messageType: r.message_type, content: r.head },
        actor.profile.membershipType,
      );
      preview = v.preview;
      limited = v.limited;
    }
    return {
      key: r.key,
      kind: r.kind,
      title: r.kind === "file" ? `Dossier ${r.reference ?? ""}`.trim() : (name ?? r.sender_name ?? memberNameOrGone(null, null)),
      subtitle: r.kind === "file" ? memberNameOrGone(r.other_first, r.other_last) : r.kind === "member" ? r.other_company : null,
      subject: r.subject,
      lastAt: iso(r.created_at),
      lastByMe: r.by_me,
      preview,
      limited,
      unread: Number(r.unread),
    };
  });
  return {
    items,
    total,
    page,
    pageCount: Math.max(1, Math.ceil(total / CONVERSATIONS_PAGE_SIZE)),
    unreadConversations: await unreadConversations(me),
  };
}

/**
 * How many of the member's conversations hold at least one unread message: the count the
 * sidebar, the tab bar and the overview show next to « Messages ». One statement,
 * two index lookups per received message at most; keyed by the member (plan reused).
 */
export async function unreadConversations(memberId: string): Promise<number> {
  const [row] = await queryRows<{ n: number | string }>(withReusablePlan(sql`
    select (select count(distinct case when m.message_type = 'internal' and m.sender_id is not null then m.sender_id else m.id end)
        from messages m where m.recipient_id = ${memberId}::uuid
          and not exists (select 1 from message_reads r where r.message_id = m.id and r.profile_id = ${memberId}::uuid))
      + (select count(distinct cm.file_id) from collaboration_messages cm
        where cm.file_id in (select f.id from collaboration_files f where f.member_a_id = ${memberId}::uuid
                             union all select f.id from collaboration_files f where f.member_b_id = ${memberId}::uuid)
          and cm.sender_profile_id is distinct from ${memberId}::uuid
          and not exists (select 1 from message_reads r where r.file_message_id = cm.id and r.profile_id = ${memberId}::uuid)) as n`));
  return Number(row?.n ?? 0);
}

// ---------------------------------------------------------------------------------------------
// One conversation

export type ThreadMessage = {
  id: string;
  byMe: boolean;
  senderName: string;
  at: string;
  subject: string | null;
  /** The whole body, or null when the member may read only its first line (`preview`). */
  body: string | null;
  preview: string | null;
  limited: boolean;
  unread: boolean;
};

export type ConversationThread = {
  key: string;
  kind: ConversationKind;
  title: string;
  subtitle: string | null;
  /** The file of a `dossier-` conversation. */
  file: { id: string; reference: string } | null;
  messages: ThreadMessage[];
  unread: number;
  /** The newest message shown: marking read stops there. */
  lastMessageId: string | null;
  limited: boolean;
  /** How the member answers: in the thread (a peer, a file), by e-mail (a visitor), or not at all. */
  reply:
    | { kind: "internal"; subject: string }
    | { kind: "file" }
    | { kind: "email"; email: string; subject: string }
    | { kind: "premium" }
    | { kind: "none"; reason: string };
};

function notFound(): never {
  throw new AppError("not-found", MESSAGING_ERRORS.notFound);
}

type InboxRow = {
  id: string;
  created_at: Date | string;
  by_me: boolean;
  subject: string;
  content: string;
  sender_id: string | null;
  sender_name: string;
  sender_email: string;
  message_type: MessageType;
  read: boolean;
};

function inboxMessage(actor: MessageActor, r: InboxRow, myName = "Vous"): ThreadMessage {
  if (r.by_me) {
    return { id: r.id, byMe: true, senderName: myName, at: iso(r.created_at), subject: r.subject, body: r.content, preview: null, limited: false, unread: false };
  }
  const v = messageVisibility({ senderId: r.sender_id, senderEmail: r.sender_email, messageType: r.message_type, content: r.content }, actor.profile.membershipType);
  return {
    id: r.id,
    byMe: false,
    senderName: r.sender_name,
    at: iso(r.created_at),
    subject: r.subject,
    body: v.content,
    preview: v.content === null ? v.preview : null,
    limited: v.limited,
    unread: !r.read,
  };
}

/** One conversation of the member; a 404 when it is not theirs (or holds nothing). */
export async function getConversation(actor: MessageActor, ref: ConversationRef): Promise<ConversationThread> {
  if (ref.kind === "file") return fileThread(actor, ref.id);
  if (ref.kind === "contact") return contactThread(actor, ref.id);
  return peerThread(actor, ref.id);
}

async function peerThread(actor: MessageActor, peerId: string): Promise<ConversationThread> {
  const me = actor.profile.id;
  const rows = await queryRows<InboxRow & { peer_first: string | null; peer_last: string | null; peer_company: string | null; peer_validated: boolean | null }>(
    withReusablePlan(sql`
    select t.*, p.first_name as peer_first, p.last_name as peer_last, p.company as peer_company, p.profile_status = 'validated' as peer_validated
    from (
      select m.id, m.created_at, m.sender_id = ${me}::uuid as by_me, m.subject, m.content, m.sender_id, m.sender_name, m.sender_email,
        m.message_type::text as message_type,
        m.sender_id = ${me}::uuid or exists (select 1 from message_reads r where r.message_id = m.id and r.profile_id = ${me}::uuid) as read
      from messages m
      where m.message_type = 'internal' and ((m.recipient_id = ${me}::uuid and m.sender_id = ${peerId}::uuid)
        or (m.sender_id = ${me}::uuid and m.recipient_id = ${peerId}::uuid))
      order by m.created_at desc, m.id desc limit ${THREAD_LIMIT}
    ) t left join profiles p on p.id = ${peerId}::uuid
    order by t.created_at, t.id`),
  );
  if (rows.length === 0) notFound();
  const first = rows[0];
  const messages = rows.map((r) => inboxMessage(actor, r));
  const lastReceived = [...rows].reverse().find((r) => !r.by_me) ?? rows[rows.length - 1];
  const premium = can(actor.profile.membershipType, "internalMessaging");
  const reply: ConversationThread["reply"] = !first.peer_validated
    ? { kind: "none", reason: MESSAGING_ERRORS.recipientUnavailable }
    : premium
      ? { kind: "internal", subject: replySubject(lastReceived.subject) }
      : { kind: "premium" };
  return {
    key: conversationKey({ kind: "member", id: peerId }),
    kind: "member",
    title: first.peer_first ? `${first.peer_first} ${first.peer_last ?? ""}`.trim() : (rows.find((r) => !r.by_me)?.sender_name ?? memberNameOrGone(null, null)),
    subtitle: first.peer_company,
    file: null,
    messages,
    unread: messages.filter((m) => m.unread).length,
    lastMessageId: rows[rows.length - 1].id,
    limited: messages.some((m) => m.limited),
    reply,
  };
}

async function contactThread(actor: MessageActor, messageId: string): Promise<ConversationThread> {
  const me = actor.profile.id;
  const [r] = await queryRows<InboxRow>(withReusablePlan(sql`
    select m.id, m.created_at, false as by_me, m.subject, m.content, m.sender_id, m.sender_name, m.sender_email, m.message_type::text as message_type,
      exists (select 1 from message_reads r where r.message_id = m.id and r.profile_id = ${me}::uuid) as read
    from messages m where m.id = ${messageId}::uuid and m.recipient_id = ${me}::uuid`));
  // A peer's message belongs to the peer's conversation: its `contact-` name is no page.
  if (!r || (r.message_type === "internal" && r.sender_id !== null)) notFound();
  const message = inboxMessage(actor, r);
  const visitor = r.message_type === "public_contact";
  return {
    key: conversationKey({ kind: "contact", id: r.id }),
    kind: "contact",
    title: r.sender_name,
    subtitle: visitor ? "Visiteur de l’annuaire" : null,
    file: null,
    messages: [message],
    unread: message.unread ? 1 : 0,
    lastMessageId: r.id,
    limited: message.limited,
    reply: visitor
      ? { kind: "email", email: r.sender_email, subject: replySubject(r.subject) }
      : { kind: "none", reason: MESSAGING_ERRORS.recipientUnavailable },
  };
}

type FileMessageRow = { id: string; created_at: Date | string; sender_profile_id: string | null; body: string; read: boolean };

async function fileThread(actor: MessageActor, fileId: string): Promise<ConversationThread> {
  const me = actor.profile.id;
  const access = await readFileAccess({ profileId: me }, fileId);
  const rows = await queryRows<FileMessageRow>(withReusablePlan(sql`
    select t.* from (
      select cm.id, cm.created_at, cm.sender_profile_id, cm.body,
        cm.sender_profile_id = ${me}::uuid or exists (select 1 from message_reads r where r.file_message_id = cm.id and r.profile_id = ${me}::uuid) as read
      from collaboration_messages cm where cm.file_id = ${access.id}::uuid
      order by cm.created_at desc, cm.id desc limit ${THREAD_LIMIT}
    ) t order by t.created_at, t.id`));
  const otherName = memberNameOrGone(access.counterpart.firstName, access.counterpart.lastName);
  const messages = rows.map((r): ThreadMessage => {
    const byMe = r.sender_profile_id === me;
    return {
      id: r.id,
      byMe,
      senderName: byMe ? "Vous" : otherName,
      at: iso(r.created_at),
      subject: null,
      body: r.body,
      preview: null,
      limited: false,
      unread: !byMe && !r.read,
    };
  });
  return {
    key: conversationKey({ kind: "file", id: access.id }),
    kind: "file",
    title: `Dossier ${access.reference}`,
    subtitle: otherName,
    file: { id: access.id, reference: access.reference },
    messages,
    unread: messages.filter((m) => m.unread).length,
    lastMessageId: rows.length ? rows[rows.length - 1].id : null,
    limited: false,
    reply: access.counterpartId ? { kind: "file" } : { kind: "none", reason: "Votre confrère a quitté le réseau\u00a0: ce dossier ne reçoit plus de messages." },
  };
}

/**
 * The member read the conversation up to `upTo` (the newest message they were shown; every
 * message when null): the same mark the file page writes. A 404 when it is not theirs.
 */
export async function markConversationRead(actor: MessageActor, ref: ConversationRef, upTo: string | null): Promise<void> {
  const me = actor.profile.id;
  if (ref.kind === "file") {
    const access = await readFileAccess({ profileId: me }, ref.id);
    await markFileThreadRead(me, access, upTo);
    return;
  }
  if (ref.kind === "contact") {
    const [own] = await queryRows<{ id: string }>(sql`select id from messages where id = ${ref.id}::uuid and recipient_id = ${me}::uuid`);
    if (!own) notFound();
    await markInboxMessageRead(me, own.id);
    return;
  }
  const [any] = await queryRows<{ id: string }>(sql`
    select id from messages where message_type = 'internal' and ((recipient_id = ${me}::uuid and sender_id = ${ref.id}::uuid)
      or (sender_id = ${me}::uuid and recipient_id = ${ref.id}::uuid)) limit 1`);
  if (!any) notFound();
  await markPeerMessagesRead(me, ref.id, upTo);
}

/** Where an old inbox link (`/dashboard/messages/<message id>`) now leads; a 404 when not the member's. */
export async function conversationOfMessage(actor: MessageActor, messageId: string): Promise<ConversationRef> {
  const me = actor.profile.id;
  const [r] = await queryRows<{ id: string; sender_id: string | null; recipient_id: string; message_type: MessageType }>(sql`
    select id, sender_id, recipient_id, message_type::text as message_type from messages
    where id = ${messageId}::uuid and (recipient_id = ${me}::uuid or (sender_id = ${me}::uuid and message_type = 'internal'))`);
  if (!r) notFound();
  if (r.message_type === "internal" && r.sender_id !== null) {
    return { kind: "member", id: r.sender_id === me ? r.recipient_id : r.sender_id };
  }
  return { kind: "contact", id: r.id };
}

