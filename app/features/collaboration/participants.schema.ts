// The forms of a file's participants and folders.
import { z } from "zod";
import { isSendableEmail } from "~/lib/email-address";
import { FOLDER_VISIBILITIES, PARTICIPANT_ROLES, PARTICIPANT_SIDES } from "./participant-rules";

const checkbox = z
  .string()
  .optional()
  .transform((v) => v === "on" || v === "true");

const rights = {
  voir: checkbox,
  telecharger: checkbox,
  deposer: checkbox,
};

export const inviteSchema = z
  .object({
    intent: z.literal("invite"),
    email: z
      .string({ error: "L’adresse e-mail est obligatoire." })
      .trim()
      .toLowerCase()
      .refine(isSendableEmail, "Cette adresse e-mail n’est pas valide."),
    role: z.enum(PARTICIPANT_ROLES, { error: "Choisissez le rôle du participant." }),
    side: z.enum(PARTICIPANT_SIDES, { error: "Choisissez le côté du participant." }),
    ...rights,
  })
  .transform((v) => ({ email: v.email, role: v.role, side: v.side, rights: { voir: v.voir, telecharger: v.telecharger, deposer: v.deposer } }));

export const participantIdSchema = z.object({
  participantId: z.uuid({ error: "Participant inconnu." }),
});

export const rightsSchema = z
  .object({ participantId: z.uuid({ error: "Participant inconnu." }), ...rights })
  .transform((v) => ({ participantId: v.participantId, rights: { voir: v.voir, telecharger: v.telecharger, deposer: v.deposer } }));

export const folderSchema = z.object({
  name: z
    .string({ error: "Nommez le dossier de documents." })
    .trim()
    .min(1, "Nommez le dossier de documents.")
    .max(80, "Le nom ne peut pas dépasser 80 caractères."),
  visibility: z.enum(FOLDER_VISIBILITIES, { error: "Choisissez qui voit ce dossier." }),
});

const name = (label: string) =>
  z
    .string({ error: `${label} est obligatoire.` })
    .trim()
    .min(1, `${label} est obligatoire.`)
    .max(80, `${label} ne peut pas dépasser 80 caractères.`);

export const guestSignUpSchema = z
  .object({
    firstName: name("Le prénom"),
    lastName: name("Le nom"),
    company: z.string().trim().max(120, "Le cabinet ne peut pas dépasser 120 caractères.").optional().default(""),
    password: z
      .string({ error: "Le mot de passe est obligatoire." })
      .min(8, "Le mot de passe doit contenir au moins 8 caractères.")
      .max(128, "Le mot de passe ne doit pas dépasser 128 caractères."),
    confirmPassword: z.string({ error: "Les mots de passe ne correspondent pas." }),
  })
  .refine((v) => v.password === v.confirmPassword, { message: "Les mots de passe ne correspondent pas.", path: ["confirmPassword"] });
