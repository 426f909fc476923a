// The forms of mediation (one zod schema each, on the client and the server).
import { z } from "zod";
import { BREACH_KINDS, DECIDED_STATUSES, decisionProblem, MEDIATION_LIMITS as L, UPHELD_AGAINST } from "./mediation-rules";

const text = (label: string, min: number, max: number) =>
  z
    .string({ error: `${label} est obligatoire.` })
    .trim()
    .min(1, `${label} est obligatoire.`)
    .min(min, `${label} doit contenir au moins ${min} caractères.`)
    .max(max, `${label} ne peut pas dépasser ${max} caractères.`);

export const openMediationSchema = z.object({
  subject: text("L’objet", L.subjectMin, L.subjectMax),
  facts: text("L’exposé des faits", L.factsMin, L.factsMax),
});
export type OpenMediationInput = z.output<typeof openMediationSchema>;

export const mediationMessageSchema = z.object({
  body: text("Le message", 1, L.messageMax),
});

export const mediationStatusSchema = z.object({
  to: z.enum(["in_progress"], { error: "Statut inconnu." }),
});

export const mediationDecisionSchema = z
  .object({
    outcome: z.enum(DECIDED_STATUSES, { error: "Choisissez l’issue de la médiation." }),
    decision: text("La décision", L.decisionMin, L.decisionMax),
    against: z.enum(UPHELD_AGAINST, { error: "Indiquez si une réclamation est retenue." }).default("none"),
    breachKind: z
      .enum(BREACH_KINDS, { error: "Nature du manquement inconnue." })
      .optional()
      .transform((v) => v ?? null),
  })
  .superRefine((v, ctx) => {
    const problem = decisionProblem(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem, path: [v.outcome === "resolved" ? "breachKind" : "against"] });
  })
  .transform((v) => ({ ...v, breachKind: v.against === "none" ? null : v.breachKind }));
export type MediationDecisionInput = z.output<typeof mediationDecisionSchema>;
