// The forms of a collaboration file (one zod schema each, on the client and the server).
import { z } from "zod";
import { ABANDON_REASONS, AMOUNT_BANDS, COLLABORATION_MESSAGES, STAGES } from "./collaboration-rules";

export const moveStageSchema = z.object({
  to: z.enum(STAGES, { error: COLLABORATION_MESSAGES.stageNotAllowed }),
});

/** The signing date of the deed: a real calendar date, not in the future, not before 2000. */
export function isValidClosingDate(value: string, today: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value) return false;
  return value >= "2000-01-01" && value <= today;
}

export function closingSchema(today: string) {
  return z.object({
    closingDate: z
      .string({ error: COLLABORATION_MESSAGES.closingDateInvalid })
      .trim()
      .refine((v) => isValidClosingDate(v, today), COLLABORATION_MESSAGES.closingDateInvalid),
    amountBand: z
      .enum(AMOUNT_BANDS, { error: "Tranche de montant inconnue" })
      .optional()
      .transform((v) => v ?? null),
  });
}

export const abandonSchema = z
  .object({
    reason: z.enum(ABANDON_REASONS, { error: "Choisissez le motif de l’abandon." }),
    text: z.string().trim().max(500, "Le motif ne peut pas dépasser 500 caractères.").optional(),
  })
  .refine((v) => v.reason !== "other" || (v.text?.length ?? 0) > 0, {
    message: COLLABORATION_MESSAGES.abandonTextRequired,
    path: ["text"],
  })
  .transform((v) => ({ reason: v.reason, text: v.text ? v.text : null }));

export const fileMessageSchema = z.object({
  body: z
    .string({ error: COLLABORATION_MESSAGES.messageEmpty })
    .trim()
    .min(1, COLLABORATION_MESSAGES.messageEmpty)
    .max(5000, COLLABORATION_MESSAGES.messageTooLong),
});
