// The forms of ratings: rating a member after a file, answering a rating,
// reporting one, the admins' moderation and the member's consent to show ratings publicly.
import { z } from "zod";
import { RATING_ANSWER_MAX, RATING_COMMENT_MAX, REPORT_REASON_MAX } from "./reputation-rules";

const score = (label: string) =>
  z.coerce
    .number({ error: `${label}\u00a0: choisissez une note de 1 à 5` })
    .int(`${label}\u00a0: choisissez une note de 1 à 5`)
    .min(1, `${label}\u00a0: choisissez une note de 1 à 5`)
    .max(5, `${label}\u00a0: choisissez une note de 1 à 5`);

export const ratingSchema = z.object({
  responsiveness: score("Réactivité"),
  professionalism: score("Professionnalisme"),
  confidentiality: score("Confidentialité"),
  comment: z
    .string()
    .trim()
    .max(RATING_COMMENT_MAX, `Le commentaire ne peut pas dépasser ${RATING_COMMENT_MAX} caractères.`)
    .optional()
    .transform((v) => (v ? v : null)),
});
export type RatingInput = z.output<typeof ratingSchema>;

export const answerSchema = z.object({
  ratingId: z.string({ error: "Évaluation introuvable" }).min(1, "Évaluation introuvable"),
  answer: z
    .string({ error: "Écrivez votre réponse." })
    .trim()
    .min(1, "Écrivez votre réponse.")
    .max(RATING_ANSWER_MAX, `La réponse ne peut pas dépasser ${RATING_ANSWER_MAX} caractères.`),
});
export type AnswerInput = z.output<typeof answerSchema>;

export const reportSchema = z.object({
  ratingId: z.string({ error: "Évaluation introuvable" }).min(1, "Évaluation introuvable"),
  reason: z
    .string({ error: "Indiquez le motif du signalement." })
    .trim()
    .min(1, "Indiquez le motif du signalement.")
    .max(REPORT_REASON_MAX, `Le motif ne peut pas dépasser ${REPORT_REASON_MAX} caractères.`),
});
export type ReportInput = z.output<typeof reportSchema>;

export const moderationSchema = z.discriminatedUnion("decision", [
  z.object({
    decision: z.literal("hide"),
    ratingId: z.string({ error: "Évaluation introuvable" }).min(1, "Évaluation introuvable"),
    reason: z
      .string({ error: "Indiquez le motif du masquage." })
      .trim()
      .min(1, "Indiquez le motif du masquage.")
      .max(REPORT_REASON_MAX, `Le motif ne peut pas dépasser ${REPORT_REASON_MAX} caractères.`),
  }),
  z.object({
    decision: z.literal("keep"),
    ratingId: z.string({ error: "Évaluation introuvable" }).min(1, "Évaluation introuvable"),
  }),
]);
export type ModerationInput = z.output<typeof moderationSchema>;

export const ratingsConsentSchema = z.object({
  showRatingsPublicly: z
    .enum(["on", "off"], { error: "Choix invalide" })
    .optional()
    .transform((v) => v === "on"),
});
