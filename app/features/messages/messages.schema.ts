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
