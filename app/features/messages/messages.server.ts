// Messages between visitors/members and professionals (spec §3 "Message"): sending (public
// contact, internal messaging between members), the recipient's inbox, reading and replying.
// Every inbox query is scoped by `recipient_id = actor`: another member's message is a 404.
import { and, count, desc, eq, sql } from "drizzle-orm";
import { data } from "react-router";
import { z } from "zod";
import { can } from "~/auth/permissions";
import type { Profile, SessionUser } from "~/auth/session.server";
import { db } from "~/db/client.server";
import { builtOnce } from "~/db/query.server";
import { messages, profiles, user } from "~/db/schema";
import { unsubscribeUrl } from "~/features/account/unsubscribe-link.server";
import { getEnv } from "~/lib/env.server";
import { MESSAGE_PREVIEW_LENGTH, messagePreview } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { sendNotificationEmail } from "~/lib/mail/render.server";
import { consumeRateLimit, RATE_LIMITS } from "~/lib/rate-limit.server";
import { type MessageType, messageVisibility, replySubject } from "./inbox-rules";
import { MESSAGING_ERRORS } from "./messages.schema";
import { notificationTexts } from "~/features/notifications/notification-rules";
import { notifyProfileSafely } from "~/features/notifications/notifications.server";

type NewMessage = {
  recipientProfileId: string;
  senderProfileId: string | null;
  senderName: string;
  senderEmail: string;
  subject: string;
  content: string;
  messageType: "public_contact" | "internal";
};

/**
 * Stores a message for a validated professional and e-mails them a notification (sender name,
 * subject, first 100 characters). Returns false when the recipient is not a validated member.
 * A notification failure is only logged (spec §8).
 */
export async function createMessage(input: NewMessage): Promise<{ id: string } | null> {
  const recipient = await db
    .select({ id: profiles.id, status: profiles.profileStatus, email: user.email, notify: profiles.notifyMessages })
    .from(profiles)
    .innerJoin(user, eq(user.id, profiles.userId))
    .where(eq(profiles.id, input.recipientProfileId))
    .limit(1);
  const r = recipient[0];
  if (!r || r.status !== "validated") return null;
  const [row] = await db
    .insert(messages)
    .values({
      recipientId: r.id,
      senderId: input.senderProfileId,
      senderName: input.senderName,
      senderEmail: input.senderEmail,
      subject: input.subject,
      content: input.content,
      messageType: input.messageType,
    })
    .returning({ id: messages.id });
  await notifyProfileSafely(r.id, "message", notificationTexts.message({ senderName: input.senderName, subject: input.subject, messageId: row.id }));
  if (r.notify) {
    try {
      const env = getEnv();
      await sendNotificationEmail(
        r.email,
        {
          title: `Nouveau message\u00a0: ${input.subject}`,
          intro: `${input.senderName} vous a envoyé un message sur ${env.APP_NAME}.`,
          lines: [`Objet\u00a0: ${input.subject}`, `«\u00a0${messagePreview(input.content)}\u00a0»`],
          ctaLabel: "Lire le message",
          ctaUrl: `${env.APP_URL}/dashboard/messages/${row.id}`,
          footer: "Vous recevez cet e-mail car un message vous a été adressé sur votre profil professionnel.",
          unsubscribeUrl: unsubscribeUrl(r.id, "messages"),
        },
        { kind: "message-notification" },
      );
    } catch (error) {
      logger.warn({ err: error, messageId: row.id }, "message notification failed");
    }
  }
  return row;
}

// ---------------------------------------------------------------------------------------------
// The member's inbox and internal messaging

/** The acting member, as returned by requireMember. */
export type MessageActor = {
  user: Pick<SessionUser, "id" | "email">;
  profile: Pick<Profile, "id" | "firstName" | "lastName" | "membershipType">;
};

export const INBOX_PAGE_SIZE = 20;

/** A row of the inbox list (spec §7 messages select), after the freemium rule. */
export type InboxItem = {
  id: string;
  subject: string;
  senderName: string;
  messageType: MessageType;
  isRead: boolean;
  createdAt: string;
  preview: string | null;
  limited: boolean;
};

export type InboxPage = { items: InboxItem[]; total: number; unread: number; page: number; pageCount: number };

/** One opened message, after the freemium rule (inbox-rules.ts). */
export type InboxMessage = InboxItem & {
  content: string | null;
  senderEmail: string | null;
  canReply: boolean;
};

const uuid = z.uuid();

function notFound(): never {
  throw data({ message: MESSAGING_ERRORS.notFound }, { status: 404 });
}

const inboxTotals = builtOnce((handle) =>
  handle
    .select({ total: count(), unread: sql<number>`count(*) filter (where not ${messages.isRead})`.mapWith(Number) })
    .from(messages)
    .where(eq(messages.recipientId, sql.placeholder("profileId"))),
);

const inboxPage = builtOnce((handle) =>
  handle
    .select({
      id: messages.id,
      subject: messages.subject,
      senderId: messages.senderId,
      senderName: messages.senderName,
      senderEmail: messages.senderEmail,
      messageType: messages.messageType,
      isRead: messages.isRead,
      createdAt: messages.createdAt,
      // One character more than the preview, so that it knows whether to add '…'.
      content: sql<string>`left(${messages.content}, ${MESSAGE_PREVIEW_LENGTH + 1})`,
    })
    .from(messages)
    .where(eq(messages.recipientId, sql.placeholder("profileId")))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(INBOX_PAGE_SIZE)
    .offset(sql.placeholder("offset")),
);

/** Received messages, newest first, one page; the body is cut in SQL to what a preview needs. */
export async function listInbox(actor: MessageActor, requestedPage = 1): Promise<InboxPage> {
  const [totals] = await inboxTotals().execute({ profileId: actor.profile.id });
  const total = Number(totals?.total ?? 0);
  const pageCount = Math.max(1, Math.ceil(total / INBOX_PAGE_SIZE));
  const page = Math.min(Math.max(1, requestedPage), pageCount);
  const rows = await inboxPage().execute({ profileId: actor.profile.id, offset: (page - 1) * INBOX_PAGE_SIZE });
  const items = rows.map((r): InboxItem => {
    const v = messageVisibility(r, actor.profile.membershipType);
    return {
      id: r.id,
      subject: r.subject,
      senderName: r.senderName,
      messageType: r.messageType,
      isRead: r.isRead,
      createdAt: r.createdAt.toISOString(),
      preview: v.preview,
      limited: v.limited,
    };
  });
  return { items, total, unread: Number(totals?.unread ?? 0), page, pageCount };
}

export async function countUnreadMessages(actor: MessageActor): Promise<number> {
  const [row] = await db
    .select({ unread: count() })
    .from(messages)
    .where(and(eq(messages.recipientId, actor.profile.id), eq(messages.isRead, false)));
  return Number(row?.unread ?? 0);
}

async function findOwnMessage(actor: MessageActor, messageId: string) {
  if (!uuid.safeParse(messageId).success) notFound();
  const [row] = await db
    .select({
      id: messages.id,
      subject: messages.subject,
      content: messages.content,
      senderId: messages.senderId,
      senderName: messages.senderName,
      senderEmail: messages.senderEmail,
      messageType: messages.messageType,
      isRead: messages.isRead,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.recipientId, actor.profile.id)))
    .limit(1);
  return row ?? notFound();
}

/** One received message; 404 when it does not exist or was sent to someone else. */
export async function getInboxMessage(actor: MessageActor, messageId: string): Promise<InboxMessage> {
  const r = await findOwnMessage(actor, messageId);
  const v = messageVisibility(r, actor.profile.membershipType);
  return {
    id: r.id,
    subject: r.subject,
    senderName: r.senderName,
    messageType: r.messageType,
    isRead: r.isRead,
    createdAt: r.createdAt.toISOString(),
    preview: v.preview,
    limited: v.limited,
    content: v.content,
    senderEmail: v.senderEmail,
    canReply: v.canReply,
  };
}

/** Marks a received message read (idempotent); 404 when it is not the actor's. */
export async function markMessageRead(actor: MessageActor, messageId: string): Promise<void> {
  if (!uuid.safeParse(messageId).success) notFound();
  const updated = await db
    .update(messages)
    .set({ isRead: true, updatedAt: sql`case when ${messages.isRead} then ${messages.updatedAt} else now() end` })
    .where(and(eq(messages.id, messageId), eq(messages.recipientId, actor.profile.id)))
    .returning({ id: messages.id });
  if (updated.length === 0) notFound();
}

export type InternalMessageCommand = { recipientId: string; subject: string; message: string };

function requireInternalMessaging(actor: MessageActor) {
  if (!can(actor.profile.membershipType, "internalMessaging")) {
    throw data({ message: MESSAGING_ERRORS.premiumOnly }, { status: 403 });
  }
}

/**
 * Internal message from one member to another (premium and founding members only, spec §6):
 * type internal, sender_id = the actor's profile, the actor's name and account e-mail, and the
 * notification e-mail of createMessage (sender, subject, first 100 characters) when the
 * recipient wants it. Rate-limited per account.
 */
export async function sendInternalMessage(actor: MessageActor, input: InternalMessageCommand): Promise<{ id: string }> {
  requireInternalMessaging(actor);
  if (!uuid.safeParse(input.recipientId).success) throw data({ message: MESSAGING_ERRORS.recipientUnavailable }, { status: 404 });
  if (input.recipientId === actor.profile.id) throw data({ message: MESSAGING_ERRORS.self }, { status: 400 });
  const limit = await consumeRateLimit(`message:account:${actor.user.id}`, RATE_LIMITS.messageAccount);
  if (!limit.allowed) {
    throw data({ message: MESSAGING_ERRORS.tooMany }, { status: 429, headers: { "retry-after": String(limit.retryAfter) } });
  }
  const created = await createMessage({
    recipientProfileId: input.recipientId,
    senderProfileId: actor.profile.id,
    senderName: `${actor.profile.firstName} ${actor.profile.lastName}`,
    senderEmail: actor.user.email,
    subject: input.subject,
    content: input.message,
    messageType: "internal",
  });
  if (!created) throw data({ message: MESSAGING_ERRORS.recipientUnavailable }, { status: 404 });
  return created;
}

/** Reply from the inbox to an internal message: 'Re: subject', to the sender's profile. */
export async function replyToMessage(actor: MessageActor, messageId: string, input: { message: string }): Promise<{ id: string }> {
  requireInternalMessaging(actor);
  const original = await findOwnMessage(actor, messageId);
  if (original.messageType !== "internal" || !original.senderId) {
    throw data({ message: MESSAGING_ERRORS.cannotReply }, { status: 409 });
  }
  return sendInternalMessage(actor, {
    recipientId: original.senderId,
    subject: replySubject(original.subject),
    message: input.message,
  });
}
