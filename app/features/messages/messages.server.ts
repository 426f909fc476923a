// Messages between visitors/members and professionals (spec §3 "Message"): sending (public
// contact, internal messaging between members). Reading them, with their read state, is the
// « Messages » view's (conversations.server.ts).
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { can } from "~/auth/permissions";
import type { Profile, SessionUser } from "~/auth/session.server";
import { db } from "~/db/client.server";
import { messages, profiles, user } from "~/db/schema";
import { unsubscribeUrl } from "~/features/account/unsubscribe-link.server";
import { getEnv } from "~/lib/env.server";
import { messagePreview } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { sendNotificationEmail } from "~/lib/mail/render.server";
import { consumeRateLimit, RATE_LIMITS } from "~/lib/rate-limit.server";
import { conversationPath } from "./conversation-rules";
import { MESSAGING_ERRORS } from "./messages.schema";
import { notificationTexts } from "~/features/notifications/notification-rules";
import { emailFrequencySql, notifyProfileSafely } from "~/features/notifications/notifications.server";
import { AppError } from "~/lib/errors/app-error";

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
    .select({ id: profiles.id, status: profiles.profileStatus, email: user.email, notify: sql<boolean>`${emailFrequencySql(profiles.userId, "messages")} = 'immediate'` })
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
          ctaUrl: `${env.APP_URL}${conversationPath(
            input.messageType === "internal" && input.senderProfileId ? { kind: "member", id: input.senderProfileId } : { kind: "contact", id: row.id },
          )}`,
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

const uuid = z.uuid();

export type InternalMessageCommand = { recipientId: string; subject: string; message: string };

function requireInternalMessaging(actor: MessageActor) {
  if (!can(actor.profile.membershipType, "internalMessaging")) {
    throw new AppError("forbidden", MESSAGING_ERRORS.premiumOnly);
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
  if (!uuid.safeParse(input.recipientId).success) throw new AppError("not-found", MESSAGING_ERRORS.recipientUnavailable);
  if (input.recipientId === actor.profile.id) throw new AppError("invalid", MESSAGING_ERRORS.self);
  const limit = await consumeRateLimit(`message:account:${actor.user.id}`, RATE_LIMITS.messageAccount);
  if (!limit.allowed) {
    throw new AppError("rate-limited", MESSAGING_ERRORS.tooMany, { retryAfterSeconds: limit.retryAfter });
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
  if (!created) throw new AppError("not-found", MESSAGING_ERRORS.recipientUnavailable);
  return created;
}
