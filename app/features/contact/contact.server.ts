// Messages from the public /contact page (spec §3 "Contact message", §7 send-contact-email).
import { db } from "~/db/client.server";
import { contactMessages } from "~/db/schema";
import { getEnv } from "~/lib/env.server";
import { sendNotificationEmail } from "~/lib/mail/render.server";
import type { ContactPageInput } from "./contact.schema";

/**
 * Stores the message and queues its e-mail to the team (CONTACT_EMAIL, reply-to the sender) in
 * one transaction: either the team gets the e-mail and the row exists, or neither. Throws on
 * failure; the caller shows the spec's error and logs it.
 */
export async function createContactMessage(input: ContactPageInput): Promise<{ id: string }> {
  const env = getEnv();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(contactMessages)
      .values({
        firstName: input.firstName,
        lastName: input.lastName,
        email: input.email,
        company: input.company ?? null,
        subject: input.subject,
        message: input.message,
      })
      .returning({ id: contactMessages.id });
    // Every value is visitor-written: the template escapes it in the HTML version.
    await sendNotificationEmail(
      env.CONTACT_EMAIL,
      {
        title: `[Contact] ${input.subject}`,
        intro: `Nouveau message reçu via le formulaire de contact de ${env.APP_NAME}. Répondez directement à cet e-mail pour écrire à l’expéditeur.`,
        lines: [
          `Prénom\u00a0: ${input.firstName}`,
          `Nom\u00a0: ${input.lastName}`,
          `E-mail\u00a0: ${input.email}`,
          `Société\u00a0: ${input.company ?? "Non renseignée"}`,
          `Sujet\u00a0: ${input.subject}`,
          `Message\u00a0:\n${input.message}`,
        ],
        footer: `Vous recevez cet e-mail car cette adresse reçoit les messages du formulaire de contact de ${env.APP_NAME}.`,
      },
      { replyTo: input.email, kind: "contact-page", dedupeKey: `contact-page:${row.id}`, tx },
    );
    return row;
  });
}
