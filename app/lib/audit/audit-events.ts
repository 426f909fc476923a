// The audit journal is evidence: each action is declared once here — what it targets, the shape
// of its details (a zod schema), its French label and its detail lines — and the one writer
// (audit.server.ts), the back office's journal and the members' data export read these
// declarations. Rows are read tolerantly: an unknown action or details that no longer match their
// schema still read as something.
import { z } from "zod";

const target = z.string();
const optionalText = z.string().nullable().optional();
const nothing = z.object({}).strict();

export const AUDIT_TARGET_LABELS = {
  profile: "Profil",
  deal: "Transaction",
  recommendations: "Recommandations",
  user: "Compte",
  mediation: "Médiation",
  rating: "Évaluation",
  mandate: "Mandat",
} as const;
export type AuditTargetType = keyof typeof AUDIT_TARGET_LABELS;

type Declaration<S extends z.ZodType> = {
  label: string;
  targetType: AuditTargetType;
  details: S;
};
const declare = <S extends z.ZodType>(d: Declaration<S>) => d;

export const AUDIT_EVENTS = {
  "profile.validate": declare({
    label: "Profil validé",
    targetType: "profile",
    details: z.object({ target, foundingApplied: z.boolean(), uncheckedSteps: z.array(z.string()).optional(), reason: optionalText }),
  }),
  "profile.reject": declare({ label: "Profil rejeté", targetType: "profile", details: z.object({ target, reason: optionalText }) }),
  "profile.suspend": declare({
    label: "Membre suspendu",
    targetType: "profile",
    details: z.object({ target, reason: optionalText, sessionsEnded: z.number().int().nonnegative() }),
  }),
  "profile.reinstate": declare({ label: "Membre réintégré", targetType: "profile", details: z.object({ target }) }),
  "deal.validate": declare({ label: "Transaction validée", targetType: "deal", details: z.object({ target, deal: z.string() }) }),
  "deal.reject": declare({ label: "Transaction rejetée", targetType: "deal", details: z.object({ target, deal: z.string(), reason: z.string() }) }),
  "recommendations.export_csv": declare({
    label: "Export CSV des recommandations",
    targetType: "recommendations",
    details: z.object({ target, search: optionalText, count: z.number().int().nonnegative() }),
  }),
  "recommendations.export_emails": declare({
    label: "Export des e-mails des parrains",
    targetType: "recommendations",
    details: z.object({ target, search: optionalText, count: z.number().int().nonnegative() }),
  }),
  "verification.check": declare({
    label: "Étape de vérification cochée",
    targetType: "profile",
    details: z.object({ target, step: z.string(), stepLabel: z.string() }),
  }),
  "verification.uncheck": declare({
    label: "Étape de vérification décochée",
    targetType: "profile",
    details: z.object({ target, step: z.string(), stepLabel: z.string() }),
  }),
  "mediation.open": declare({
    label: "Médiation ouverte",
    targetType: "mediation",
    details: z.object({ target, attachments: z.number().int().nonnegative() }),
  }),
  "mediation.message": declare({ label: "Message dans une médiation", targetType: "mediation", details: z.object({ target }) }),
  "mediation.status": declare({
    label: "Médiation passée en cours",
    targetType: "mediation",
    details: z.object({ target, from: z.string(), to: z.string() }),
  }),
  "mediation.decide": declare({
    label: "Décision de médiation",
    targetType: "mediation",
    details: z.object({
      target,
      outcome: z.enum(["resolved", "dismissed"]),
      upheld: z.boolean(),
      against: z.string().nullable().optional(),
      breachKind: z.string().nullable().optional(),
    }),
  }),
  "rating.hide": declare({ label: "Évaluation masquée", targetType: "rating", details: z.object({ target, reason: z.string() }) }),
  "rating.keep": declare({ label: "Évaluation maintenue après signalement", targetType: "rating", details: z.object({ target }) }),
  "account.password_changed": declare({ label: "Mot de passe modifié", targetType: "user", details: nothing }),
  "account.two_factor_enabled": declare({ label: "Double authentification activée", targetType: "user", details: nothing }),
  "account.two_factor_disabled": declare({ label: "Double authentification désactivée", targetType: "user", details: nothing }),
  "account.backup_codes_regenerated": declare({ label: "Codes de secours régénérés", targetType: "user", details: nothing }),
  "account.session_revoked": declare({
    label: "Session fermée à distance",
    targetType: "user",
    details: z.object({ sessionId: z.string() }),
  }),
  "account.other_sessions_revoked": declare({ label: "Autres sessions fermées", targetType: "user", details: nothing }),
  "account.data_exported": declare({ label: "Export de ses données personnelles", targetType: "user", details: nothing }),
  "account.deleted": declare({
    label: "Compte supprimé",
    targetType: "user",
    details: z.object({
      profileId: z.string().nullable(),
      anonymisedMessages: z.number().int().nonnegative(),
      deletedMandates: z.number().int().nonnegative(),
      deletedFiles: z.number().int().nonnegative(),
      // Kept for the accounting obligation: the payments' provider, references, amounts and dates.
      payments: z.array(z.record(z.string(), z.unknown())),
    }),
  }),
  "verification.insurance_renewed": declare({
    label: "Nouvelle attestation d’assurance déposée",
    targetType: "profile",
    details: z.object({ endsOn: z.string() }),
  }),
  "verification.evidence_filed": declare({
    label: "Justificatifs de vérification déposés",
    targetType: "profile",
    details: z.object({ endsOn: z.string() }),
  }),
  "mandate.deleted_with_connection_log": declare({
    label: "Mandat supprimé, journal de ses mises en relation conservé",
    targetType: "mandate",
    details: z.object({ events: z.array(z.record(z.string(), z.unknown())) }),
  }),
} as const;

export type AuditAction = keyof typeof AUDIT_EVENTS;
export type AuditDetails<A extends AuditAction> = z.input<(typeof AUDIT_EVENTS)[A]["details"]>;

/** The typed builder: checks the details against the action's schema (a wrong shape is a bug: it throws). */
export function auditEvent<A extends AuditAction>(action: A, details: AuditDetails<A>): { action: A; targetType: AuditTargetType; details: AuditDetails<A> } {
  AUDIT_EVENTS[action].details.parse(details);
  return { action, targetType: AUDIT_EVENTS[action].targetType, details };
}

export function isAuditAction(action: string): action is AuditAction {
  return Object.hasOwn(AUDIT_EVENTS, action);
}

/** The journal's French label of an action; an unknown key (a newer version's) reads as such. */
export function auditActionLabel(action: string): string {
  return isAuditAction(action) ? AUDIT_EVENTS[action].label : `Autre action (${action})`;
}

/** Details as short French lines (only the keys people read; identifiers and logs stay out). */
export function auditDetailLines(details: Record<string, unknown> | null | undefined): string[] {
  if (!details) return [];
  const lines: string[] = [];
  const text = (key: string) => (typeof details[key] === "string" && details[key] !== "" ? (details[key] as string) : null);
  const reason = text("reason");
  if (reason) lines.push(`Motif\u00a0: ${reason}`);
  const step = text("stepLabel");
  if (step) lines.push(`Étape\u00a0: ${step}`);
  if (Array.isArray(details.uncheckedSteps) && details.uncheckedSteps.length) {
    lines.push(`Validé sans les étapes\u00a0: ${details.uncheckedSteps.filter((s) => typeof s === "string").join(", ")}`);
  }
  const deal = text("deal");
  if (deal) lines.push(`Transaction\u00a0: ${deal}`);
  if (details.foundingApplied === true) lines.push("Adhésion membre fondateur activée");
  if (typeof details.sessionsEnded === "number") lines.push(`Sessions fermées\u00a0: ${details.sessionsEnded}`);
  if ("search" in details) lines.push(`Filtre\u00a0: ${text("search") ?? "aucun"}`);
  if (typeof details.count === "number") lines.push(`Lignes exportées\u00a0: ${details.count}`);
  return lines;
}
