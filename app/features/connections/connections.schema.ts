// Forms of the matching panel: match request, answer, confidentiality undertaking.
import { z } from "zod";

export const MATCH_REQUEST_MESSAGE_MAX = 2000;

/** 'Demander une mise en relation': optional message, trimmed, empty → null (spec §5). */
export const matchRequestSchema = z.object({
  mandateId: z.uuid({ error: "Mandat inconnu" }),
  targetMandateId: z.uuid({ error: "Mandat inconnu" }),
  message: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : null))
    .pipe(
      z
        .string()
        .max(MATCH_REQUEST_MESSAGE_MAX, `Le message ne doit pas dépasser ${MATCH_REQUEST_MESSAGE_MAX} caractères`)
        .nullable(),
    ),
});

export const respondSchema = z.object({
  requestId: z.uuid({ error: "Demande inconnue" }),
});

export const UNDERTAKING_REQUIRED = "Vous devez accepter l’engagement de confidentialité pour consulter l’identité du client";

export const undertakingSchema = z.object({
  requestId: z.uuid({ error: "Demande inconnue" }),
  accept: z.literal("on", { error: UNDERTAKING_REQUIRED }),
});
