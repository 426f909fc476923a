import { z } from "zod";
import { CONTACT_DIALOG_REQUIRED } from "./messages.texts";

export { CONTACT_DIALOG_REQUIRED, MESSAGING_ERRORS } from "./messages.texts";

const required = (max: number) =>
  z
    .string({ error: CONTACT_DIALOG_REQUIRED })
    .trim()
    .min(1, CONTACT_DIALOG_REQUIRED)
    .max(max, `Ce champ ne doit pas dépasser ${max} caractères`);

/** Public contact dialog on a profile (spec §5): every field non-empty after trimming. */
export const publicContactSchema = z.object({
  fullName: required(120),
  email: required(254).pipe(z.email({ error: "Veuillez saisir une adresse e-mail valide" })),
  subject: required(200),
  message: required(5000),
  // Honeypot: humans never see or fill it.
  website: z.string().max(0).optional(),
});
export type PublicContactInput = z.output<typeof publicContactSchema>;

/** 'Contacter' from the internal directory: a peer's profile id, subject and message. */
export const internalMessageSchema = z.object({
  recipientId: z.uuid({ error: "Destinataire introuvable" }),
  subject: required(200),
  message: required(5000),
});
export type InternalMessageInput = z.output<typeof internalMessageSchema>;

/** Reply to an internal message from the inbox (the subject is 'Re: ' + the original's). */
export const replySchema = z.object({
  message: required(5000),
});
export type ReplyInput = z.output<typeof replySchema>;
