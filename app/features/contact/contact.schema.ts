// The /contact form (spec §2 "Static pages", §5 "Contact page", §8); one schema for Conform on the
// client and parseWithZod on the server. Messages verbatim from the spec where it gives one.
import { z } from "zod";

export const CONTACT_MESSAGES = {
  required: "Veuillez remplir tous les champs obligatoires",
  emailInvalid: "Veuillez saisir une adresse e-mail valide",
  success: "Votre message a été envoyé avec succès !",
  failure: "Erreur lors de l'envoi du message. Veuillez réessayer.",
  tooMany: "Vous avez envoyé trop de messages. Veuillez réessayer dans une heure ou nous écrire directement par e-mail.",
} as const;

// The spec shows no length limits; these keep one message reasonable for the team's inbox.
export const CONTACT_LIMITS = {
  firstName: 100,
  lastName: 100,
  email: 254,
  company: 200,
  subject: 200,
  message: 5000,
} as const;

const tooLong = (label: string, max: number) => `${label} ne doit pas dépasser ${max} caractères`;

const required = (label: string, max: number) =>
  z
    .string({ error: CONTACT_MESSAGES.required })
    .trim()
    .min(1, CONTACT_MESSAGES.required)
    .max(max, tooLong(label, max));

export const contactPageSchema = z.object({
  firstName: required("Le prénom", CONTACT_LIMITS.firstName),
  lastName: required("Le nom", CONTACT_LIMITS.lastName),
  email: required("L’adresse e-mail", CONTACT_LIMITS.email)
    .pipe(z.email({ error: CONTACT_MESSAGES.emailInvalid }))
    .transform((v) => v.toLowerCase()),
  company: z
    .string()
    .trim()
    .max(CONTACT_LIMITS.company, tooLong("Le nom de la société", CONTACT_LIMITS.company))
    .optional()
    .transform((v) => (v ? v : undefined)),
  subject: required("Le sujet", CONTACT_LIMITS.subject),
  message: required("Le message", CONTACT_LIMITS.message),
});

export type ContactPageInput = z.output<typeof contactPageSchema>;

/** Name of the hidden field humans never fill; a value means a bot (dropped silently). */
export const CONTACT_HONEYPOT_FIELD = "website";
