import { z } from "zod";

export const CONTACT_DIALOG_REQUIRED = "Veuillez remplir tous les champs";

const required = (max: number) =>
  z
    .string({ error: CONTACT_DIALOG_REQUIRED })
    .trim()
    .min(1, CONTACT_DIALOG_REQUIRED)
    .max(max, `Ce champ ne doit pas dépasser ${max} caractères`);

/** Public contact dialog on a profile (spec §5): every field non-empty after trimming. */
export const publicContactSchema = z.object({
  fullName: required(120),
  email: required(254).pipe(z.email({ error: "Veuillez saisir une adresse email valide" })),
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

/** French texts of the inbox and internal messaging (spec §8 where it has one). */
export const MESSAGING_ERRORS = {
  loadFailed: "Erreur lors du chargement des messages",
  sendFailed: "Erreur lors de l'envoi du message",
  sent: "Message envoyé avec succès !",
  notFound: "Message introuvable",
  premiumOnly: "La messagerie interne est réservée aux membres Premium et fondateurs.",
  self: "Vous ne pouvez pas vous envoyer un message.",
  tooMany: "Trop de messages envoyés. Veuillez réessayer plus tard.",
  recipientUnavailable: "Ce membre n'est plus disponible.",
  cannotReply: "Ce message ne peut pas recevoir de réponse depuis la messagerie : répondez par e-mail.",
} as const;
