// One zod schema per onboarding form (spec §5); messages verbatim where the spec gives them.
import { z } from "zod";
import { PROFESSION_CODES } from "~/db/reference";

export const ONBOARDING_MESSAGES = {
  college: "Veuillez sélectionner un collège",
  charter: "Vous devez accepter la charte d'engagement pour continuer",
  sponsorsMissing: "Veuillez renseigner les 2 recommandations",
  sponsorEmail: (email: string) => `L'adresse email "${email}" n'est pas valide`,
  sponsorsSame: "Les deux parrains doivent être des personnes différentes",
  sponsorSelf: "Vous ne pouvez pas vous recommander vous-même",
  fallback: "Une erreur est survenue",
} as const;

const text = (label: string, max = 100) =>
  z
    .string({ error: `${label} est obligatoire` })
    .trim()
    .min(1, `${label} est obligatoire`)
    .max(max, `${label} ne doit pas dépasser ${max} caractères`);

export const profileCreationSchema = z.object({
  firstName: text("Le prénom"),
  lastName: text("Le nom"),
  company: text("La société", 150),
  profession: z.enum(PROFESSION_CODES, { error: "Veuillez sélectionner une profession" }),
  college: z.enum(["transmission_entreprises", "transmission_commerces"], { error: ONBOARDING_MESSAGES.college }),
});

export const charterSchema = z.object({
  accept: z.literal("on", { error: ONBOARDING_MESSAGES.charter }),
});

export const linkedinSchema = z
  .string()
  .trim()
  .max(300, "Le lien LinkedIn ne doit pas dépasser 300 caractères")
  .optional()
  .transform((v) => (v ? v : undefined))
  .refine((v) => v === undefined || (URL.canParse(v) && /^https?:$/.test(new URL(v).protocol)), {
    message: "Le lien LinkedIn doit être une URL valide (https://…)",
  });

export const detailsSchema = z.object({
  experienceDescription: text("La description de votre expérience", 5000),
  recentOperations: text("La description de vos opérations récentes", 5000),
  linkedinUrl: linkedinSchema,
});

// A simple address pattern, as in the spec (§5).
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type Sponsor = { name: string; email: string };

/**
 * Exactly two sponsors, each with a name and an e-mail; e-mails trimmed and lower-cased, names
 * trimmed; the two must differ from each other and from the member's own e-mail.
 */
export function sponsorsSchema(ownEmail: string) {
  const raw = z.object({
    sponsor1Name: z.string().optional(),
    sponsor1Email: z.string().optional(),
    sponsor2Name: z.string().optional(),
    sponsor2Email: z.string().optional(),
  });
  return raw
    .transform((v, ctx): Sponsor[] => {
      const sponsors = [
        { name: (v.sponsor1Name ?? "").trim(), email: (v.sponsor1Email ?? "").trim().toLowerCase() },
        { name: (v.sponsor2Name ?? "").trim(), email: (v.sponsor2Email ?? "").trim().toLowerCase() },
      ];
      if (sponsors.some((s) => !s.name || !s.email)) {
        ctx.addIssue({ code: "custom", message: ONBOARDING_MESSAGES.sponsorsMissing });
        return z.NEVER;
      }
      for (const [i, s] of sponsors.entries()) {
        if (s.name.length > 120) {
          ctx.addIssue({ code: "custom", message: "Le nom du parrain ne doit pas dépasser 120 caractères", path: [`sponsor${i + 1}Name`] });
          return z.NEVER;
        }
        if (s.email.length > 254 || !EMAIL_PATTERN.test(s.email)) {
          ctx.addIssue({ code: "custom", message: ONBOARDING_MESSAGES.sponsorEmail(s.email), path: [`sponsor${i + 1}Email`] });
          return z.NEVER;
        }
      }
      if (sponsors[0].email === sponsors[1].email) {
        ctx.addIssue({ code: "custom", message: ONBOARDING_MESSAGES.sponsorsSame, path: ["sponsor2Email"] });
        return z.NEVER;
      }
      const own = ownEmail.trim().toLowerCase();
      const self = sponsors.findIndex((s) => s.email === own);
      if (self >= 0) {
        ctx.addIssue({ code: "custom", message: ONBOARDING_MESSAGES.sponsorSelf, path: [`sponsor${self + 1}Email`] });
        return z.NEVER;
      }
      return sponsors;
    });
}
