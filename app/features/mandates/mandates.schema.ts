// The mandate form (spec §5 "Mandate form"): one zod schema for Conform on the client and
// parseWithZod on the server. Messages verbatim where the spec gives them.
import { z } from "zod";
import { DEPARTMENT_CODES, SECTOR_CODES } from "~/db/reference";
import {
  AMOUNT_MESSAGES,
  FRANCE_TERRITORY,
  isIsoDate,
  isRangeInverted,
  MA_USAGES,
  MANDATE_TYPES,
  parseAmount,
  PROJECT_TIMELINES,
  TARGET_BUYER_TYPES,
  type MaUsage,
  type ProjectTimeline,
  type TargetBuyerType,
} from "./mandate-rules";
import type { MandateCriteria, MandateTerms } from "./mandate-row";

export const MANDATE_FORM_MESSAGES = {
  exclusive: "Vous devez certifier que ce mandat est exclusif",
  startRequired: "La date de début est obligatoire",
  endRequired: "La date de fin est obligatoire",
  invalidDate: "Veuillez saisir une date valide",
  endAfterStart: "La date de fin doit être postérieure à la date de début",
  clientCode: "Les initiales/nom de code sont obligatoires",
  clientName: "Le nom du client est obligatoire",
  clientAddress: "L'adresse du client est obligatoire",
  sector: "Secteur inconnu",
  territory: "Territoire inconnu",
} as const;

const tooLong = (max: number) => `Ce champ ne doit pas dépasser ${max} caractères`;

const requiredText = (message: string, max: number) =>
  z.string({ error: message }).trim().min(1, message).max(max, tooLong(max));

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, tooLong(max))
    .optional()
    .transform((v) => (v ? v : null));

const date = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, requiredMessage)
    .refine(isIsoDate, MANDATE_FORM_MESSAGES.invalidDate);

// Amounts stay raw text until the type is known: a hidden field of the other type must not
// block the form (its value is dropped anyway).
const amount = z.string().optional();

const BUYER_AMOUNTS = ["targetAmountMin", "targetAmountMax", "contributionMin", "contributionMax"] as const;
const SELLER_AMOUNTS = ["valuationAmount", "requiredContributionMin", "requiredContributionMax"] as const;
type AmountField = (typeof BUYER_AMOUNTS)[number] | (typeof SELLER_AMOUNTS)[number];

/** The parsed value of an amount already checked by the schema's refinement. */
function amountValue(raw: string | undefined): number | null {
  const parsed = parseAmount(raw);
  return parsed.ok ? parsed.value : null;
}

/** A list from repeated checkboxes: deduplicated, empty → null (spec §5). */
function codeList<T extends string>(allowed: readonly T[], message: string) {
  return z
    .array(z.string())
    .optional()
    .transform((values, ctx): T[] | null => {
      const out: T[] = [];
      for (const v of values ?? []) {
        if (!(allowed as readonly string[]).includes(v)) {
          ctx.addIssue({ code: "custom", message });
          return z.NEVER;
        }
        if (!out.includes(v as T)) out.push(v as T);
      }
      return out.length ? out : null;
    });
}

const optionalCode = <T extends string>(allowed: readonly T[], message: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx): T | null => {
      if (!v) return null;
      if (!(allowed as readonly string[]).includes(v)) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return v as T;
    });

const TERRITORY_CODES: readonly string[] = [FRANCE_TERRITORY, ...DEPARTMENT_CODES];

export const mandateFormSchema = z
  .object({
    mandateType: z.enum(MANDATE_TYPES).default("buyer"),
    // The certification 'Je certifie que ce mandat est exclusif' must be ticked (spec §5).
    isExclusive: z.literal("on", { error: MANDATE_FORM_MESSAGES.exclusive }),
    startDate: date(MANDATE_FORM_MESSAGES.startRequired),
    endDate: date(MANDATE_FORM_MESSAGES.endRequired),
    clientCode: requiredText(MANDATE_FORM_MESSAGES.clientCode, 50),
    clientName: requiredText(MANDATE_FORM_MESSAGES.clientName, 200),
    clientAddress: requiredText(MANDATE_FORM_MESSAGES.clientAddress, 500),
    description: optionalText(5000),
    // Buyer criteria
    searchSectors: codeList(SECTOR_CODES, MANDATE_FORM_MESSAGES.sector),
    searchTerritories: codeList(TERRITORY_CODES, MANDATE_FORM_MESSAGES.territory),
    targetAmountMin: amount,
    targetAmountMax: amount,
    contributionMin: amount,
    contributionMax: amount,
    maUsage: optionalCode<MaUsage>(MA_USAGES, "Valeur inconnue"),
    // Seller information
    companySector: optionalCode(SECTOR_CODES, MANDATE_FORM_MESSAGES.sector),
    companyTerritory: optionalCode(DEPARTMENT_CODES, MANDATE_FORM_MESSAGES.territory),
    companyDescription: optionalText(5000),
    valuationAmount: amount,
    requiredContributionMin: amount,
    requiredContributionMax: amount,
    projectTimeline: optionalCode<ProjectTimeline>(PROJECT_TIMELINES, "Valeur inconnue"),
    targetBuyerTypes: codeList<TargetBuyerType>(TARGET_BUYER_TYPES, "Valeur inconnue"),
  })
  .superRefine((v, ctx) => {
    if (isIsoDate(v.startDate) && isIsoDate(v.endDate) && v.endDate <= v.startDate) {
      ctx.addIssue({ code: "custom", path: ["endDate"], message: MANDATE_FORM_MESSAGES.endAfterStart });
    }
    // Only the amounts of the chosen type matter: the other side's fields are dropped.
    const fields: readonly AmountField[] = v.mandateType === "buyer" ? BUYER_AMOUNTS : SELLER_AMOUNTS;
    const parsed = new Map<AmountField, number | null>();
    for (const field of fields) {
      const r = parseAmount(v[field]);
      if (r.ok) parsed.set(field, r.value);
      else ctx.addIssue({ code: "custom", path: [field], message: r.error });
    }
    const ranges: Array<[AmountField, AmountField]> =
      v.mandateType === "buyer"
        ? [
            ["targetAmountMin", "targetAmountMax"],
            ["contributionMin", "contributionMax"],
          ]
        : [["requiredContributionMin", "requiredContributionMax"]];
    for (const [min, max] of ranges) {
      if (isRangeInverted(parsed.get(min), parsed.get(max))) {
        ctx.addIssue({ code: "custom", path: [max], message: AMOUNT_MESSAGES.minAboveMax });
      }
    }
  })
  .transform((v) => toMandateInput(v));

type Raw = Omit<Parsed, AmountField> & { [K in AmountField]?: string };

type Parsed = MandateTerms & MandateCriteria;

/** What the server stores: exclusivity certified, the other type's fields emptied. */
export type MandateInput = Parsed & { isExclusive: true };

function toMandateInput(raw: Raw & { isExclusive?: string }): MandateInput {
  const buyer = raw.mandateType === "buyer";
  const v: Parsed = {
    ...raw,
    targetAmountMin: amountValue(raw.targetAmountMin),
    targetAmountMax: amountValue(raw.targetAmountMax),
    contributionMin: amountValue(raw.contributionMin),
    contributionMax: amountValue(raw.contributionMax),
    valuationAmount: amountValue(raw.valuationAmount),
    requiredContributionMin: amountValue(raw.requiredContributionMin),
    requiredContributionMax: amountValue(raw.requiredContributionMax),
  };
  return {
    mandateType: v.mandateType,
    isExclusive: true,
    startDate: v.startDate,
    endDate: v.endDate,
    clientCode: v.clientCode,
    clientName: v.clientName,
    clientAddress: v.clientAddress,
    description: v.description,
    searchSectors: buyer ? v.searchSectors : null,
    searchTerritories: buyer ? v.searchTerritories : null,
    targetAmountMin: buyer ? v.targetAmountMin : null,
    targetAmountMax: buyer ? v.targetAmountMax : null,
    contributionMin: buyer ? v.contributionMin : null,
    contributionMax: buyer ? v.contributionMax : null,
    maUsage: buyer ? v.maUsage : null,
    companySector: buyer ? null : v.companySector,
    companyTerritory: buyer ? null : v.companyTerritory,
    companyDescription: buyer ? null : v.companyDescription,
    valuationAmount: buyer ? null : v.valuationAmount,
    requiredContributionMin: buyer ? null : v.requiredContributionMin,
    requiredContributionMax: buyer ? null : v.requiredContributionMax,
    projectTimeline: buyer ? null : v.projectTimeline,
    targetBuyerTypes: buyer ? null : v.targetBuyerTypes,
  };
}
