// One zod schema per onboarding form (spec §5); messages verbatim where the spec gives them.
import { z } from "zod";
import { PROFESSION_CODES } from "~/db/reference";
import { sameMailbox, type Sponsor } from "~/features/recommendations/email-identity";
import { isSendableEmail } from "~/lib/email-address";

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

// Names reach e-mails sent to third parties (sponsor requests): names and company are checked as
// such — no link, no e-mail address, no phone number.
const LINK_LIKE = /(https?:|www\.|:\/\/|@|[\p{L}\p{N}-]+\.(?:[a-z]{2,})(?:\/|$|\s))/iu;
const PHONE_LIKE = /(?:\d[\s.-]?){6,}/;

/** A person's first or last name: letters, spaces, hyphens, apostrophes and dots. */
export function personNameSchema(label: string, max = 60) {
  return text(label, max)
    .refine((v) => /^[\p{L}][\p{L}\p{M} .'’-]*$/u.test(v), `${label} ne peut contenir que des lettres, des espaces, des tirets et des apostrophes`)
    .refine((v) => !LINK_LIKE.test(v), `${label} ne doit pas contenir de lien`);
}

/** A firm's name: letters, digits and ordinary punctuation, without links or phone numbers. */
export function companyNameSchema(label: string, max = 120) {
  return text(label, max)
    .refine((v) => /^[\p{L}\p{N}][\p{L}\p{M}\p{N} &.,'’()/+-]*$/u.test(v), `${label} contient des caractères non autorisés`)
    .refine((v) => !LINK_LIKE.test(v) && !PHONE_LIKE.test(v), `${label} ne doit contenir ni lien, ni adresse e-mail, ni numéro de téléphone`);
}

export const profileCreationSchema = z.object({
  firstName: personNameSchema("Le prénom"),
  lastName: personNameSchema("Le nom"),
  company: companyNameSchema("La société"),
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
        if (!/^[\p{L}][\p{L}\p{M} .'’-]*$/u.test(s.name) || LINK_LIKE.test(s.name)) {
          ctx.addIssue({
            code: "custom",
            message: "Le nom du parrain ne peut contenir que des lettres, des espaces, des tirets et des apostrophes",
            path: [`sponsor${i + 1}Name`],
          });
          return z.NEVER;
        }
        // Only an address the outbox will mail: else the step would advance with no request sent.
        if (!isSendableEmail(s.email)) {
          ctx.addIssue({ code: "custom", message: ONBOARDING_MESSAGES.sponsorEmail(s.email), path: [`sponsor${i + 1}Email`] });
          return z.NEVER;
        }
      }
      // Compared as mailboxes: case, "+tag" and Gmail's dots do not make another person.
      if (sameMailbox(sponsors[0].email, sponsors[1].email)) {
        ctx.addIssue({ code: "custom", message: ONBOARDING_MESSAGES.sponsorsSame, path: ["sponsor2Email"] });
        return z.NEVER;
      }
      const self = sponsors.findIndex((s) => sameMailbox(s.email, ownEmail));
      if (self >= 0) {
        ctx.addIssue({ code: "custom", message: ONBOARDING_MESSAGES.sponsorSelf, path: [`sponsor${self + 1}Email`] });
        return z.NEVER;
      }
      return sponsors;
    });
}
