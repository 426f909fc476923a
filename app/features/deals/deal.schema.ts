// The certified-deal form (spec §3 "Certified deal", §5 "Deal reference"): year, sector and
// transaction label required, description optional. Messages are the spec's.
import { z } from "zod";
import { SECTOR_CODES } from "~/db/reference";
import { DEAL_REGIONS, DEAL_SIZE_BAND_CODES, type DealDisclosure } from "./deal-disclosure";
import { DEAL_YEAR_COUNT, isDealYear } from "./deal-years";

export const DEAL_MESSAGES = {
  required: "Veuillez remplir tous les champs obligatoires",
  year: `Veuillez choisir une année parmi les ${DEAL_YEAR_COUNT} dernières années`,
  pendingInfo: "Votre référence sera visible après validation par un administrateur",
  added: "Référence ajoutée",
  updated: "Référence mise à jour",
  deleted: "Référence supprimée",
  saveError: "Erreur lors de la sauvegarde",
  deleteError: "Erreur lors de la suppression",
  validatedLocked: "Une référence validée ne peut plus être modifiée. Vous pouvez la supprimer.",
  notFound: "Référence introuvable",
  tooMany: (max: number) => `Vous avez atteint le nombre maximum de ${max} références`,
  premiumOnly: "Les transactions M&A certifiées sont réservées aux membres Premium",
  consentRequired: "Pour nommer les parties, certifiez qu’elles ont donné leur accord ; sinon, choisissez la description anonymisée.",
  disclosure: "Veuillez choisir comment la référence apparaît sur votre profil public",
  sizeBand: "Veuillez choisir une tranche de valeur dans la liste",
  region: "Veuillez choisir une région dans la liste",
} as const;

export const DEAL_LIMITS = { acquirerCedant: 200, description: 2000, perMember: 50 } as const;

export type DealStatus = "pending" | "validated" | "rejected";

export const DEAL_STATUS_LABELS: Record<DealStatus, string> = {
  pending: "En attente de validation",
  validated: "Validée",
  rejected: "Refusée",
};

/** A deal id in a form: a UUID (anything else cannot be a deal, hence 404 further on). */
const dealIdSchema = z.string({ error: DEAL_MESSAGES.notFound }).trim().max(64, DEAL_MESSAGES.notFound);

export function dealSchema(now: Date = new Date()) {
  return z
    .object({
    dealId: dealIdSchema.optional(),
    year: z
      .number({ error: DEAL_MESSAGES.required })
      .refine((y) => isDealYear(y, now), { message: DEAL_MESSAGES.year }),
    sector: z.enum(SECTOR_CODES, { error: DEAL_MESSAGES.required }),
    acquirerCedant: z
      .string({ error: DEAL_MESSAGES.required })
      .trim()
      .min(1, DEAL_MESSAGES.required)
      .max(DEAL_LIMITS.acquirerCedant, `La transaction ne doit pas dépasser ${DEAL_LIMITS.acquirerCedant} caractères`),
    dealDescription: z
      .string()
      .trim()
      .max(DEAL_LIMITS.description, `La description ne doit pas dépasser ${DEAL_LIMITS.description} caractères`)
      .optional()
      .transform((v) => (v ? v : undefined)),
    // Anonymised unless the member explicitly names the parties.
    disclosure: z.enum(["anonymised", "named"], { error: DEAL_MESSAGES.disclosure }).default("anonymised"),
    partiesConsent: z.literal("on", { error: DEAL_MESSAGES.consentRequired }).optional(),
    sizeBand: z.enum(DEAL_SIZE_BAND_CODES, { error: DEAL_MESSAGES.sizeBand }).optional(),
    region: z.enum(DEAL_REGIONS, { error: DEAL_MESSAGES.region }).optional(),
  })
    .superRefine((v, ctx) => {
      if (v.disclosure === "named" && v.partiesConsent !== "on") {
        ctx.addIssue({ code: "custom", path: ["partiesConsent"], message: DEAL_MESSAGES.consentRequired });
      }
    });
}

export const dealDeleteSchema = z.object({ dealId: dealIdSchema });

/** The parsed form without the deal id; the description is absent (or undefined) when blank. */
export type DealInput = {
  year: number;
  sector: (typeof SECTOR_CODES)[number];
  acquirerCedant: string;
  dealDescription?: string;
  /** Absent: anonymised. "named" is only accepted with `partiesConsent`. */
  disclosure?: DealDisclosure;
  partiesConsent?: "on";
  sizeBand?: string;
  region?: string;
};
