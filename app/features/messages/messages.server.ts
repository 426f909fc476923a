// Messages between visitors/members and professionals (spec §3 "Message").
import { eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { messages, profiles, user } from "~/db/schema";
import { getEnv } from "~/lib/env.server";
import { messagePreview } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { sendNotificationEmail } from "~/lib/mail/render.server";

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
  if (r.notify) {
    try {
      const env = getEnv();
      await sendNotificationEmail(
        r.email,
        {
          title: `Nouveau message : ${input.subject}`,
          intro: `${input.senderName} vous a envoyé un message sur ${env.APP_NAME}.`,
          lines: [`Objet : ${input.subject}`, `« ${messagePreview(input.content)} »`],
          ctaLabel: "Lire le message",
          ctaUrl: `${env.APP_URL}/dashboard/messages`,
          footer: "Vous recevez cet e-mail car un message vous a été adressé sur votre profil professionnel.",
        },
        { kind: "message-notification" },
      );
    } catch (error) {
      logger.warn({ err: error, messageId: row.id }, "message notification failed");
    }
  }
  return row;
}
