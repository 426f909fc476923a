// French labels of the back office (statuses, audit actions, payment states). Pure: used by the
// route components and by the CSV export.
import type { AuditAction } from "./admin.schema";

export const PROFILE_STATUS_LABELS: Record<string, string> = {
  pending_validation: "En attente",
  validated: "Validé",
  rejected: "Rejeté",
  suspended: "Suspendu",
};

export const DEAL_STATUS_LABELS: Record<string, string> = {
  pending: "En attente",
  validated: "Validé",
  rejected: "Rejeté",
};

export const RECOMMENDATION_STATUS_LABELS = { confirmed: "Confirmée", pending: "En attente" } as const;

export const PAYMENT_STATE_LABELS: Record<string, string> = {
  none: "Aucun paiement (démarrage gratuit)",
  pending: "Paiement en cours",
  paid: "Payé (membre fondateur)",
  canceled: "Paiement annulé ou expiré",
};

export const MEMBERSHIP_LABELS: Record<string, string> = {
  freemium: "Freemium",
  premium: "Premium",
  founding_member: "Membre fondateur",
};

export const ONBOARDING_STATUS_LABELS: Record<string, string> = {
  account_created: "Compte créé",
  charter_signed: "Charte signée",
  profile_completed: "Profil complété",
  recommendations_pending: "Parrainages demandés",
  payment_completed: "Dossier complet",
  validated: "Validé",
};

export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  "profile.validate": "Profil validé",
  "profile.reject": "Profil rejeté",
  "profile.suspend": "Membre suspendu",
  "profile.reinstate": "Membre réintégré",
  "deal.validate": "Transaction validée",
  "deal.reject": "Transaction rejetée",
  "recommendations.export_csv": "Export CSV des recommandations",
  "recommendations.export_emails": "Export des e-mails des parrains",
  "verification.check": "Étape de vérification cochée",
  "verification.uncheck": "Étape de vérification décochée",
  "mediation.open": "Médiation ouverte",
  "mediation.message": "Message dans une médiation",
  "mediation.status": "Médiation passée en cours",
  "mediation.decide": "Décision de médiation",
  "rating.hide": "Évaluation masquée",
  "rating.keep": "Évaluation maintenue après signalement",
};

/** What members do to their own account (recorded in the same journal, app/features/account). */
export const ACCOUNT_EVENT_LABELS: Record<string, string> = {
  "account.password_changed": "Mot de passe modifié",
  "account.two_factor_enabled": "Double authentification activée",
  "account.two_factor_disabled": "Double authentification désactivée",
  "account.backup_codes_regenerated": "Codes de secours régénérés",
  "account.session_revoked": "Session fermée à distance",
  "account.other_sessions_revoked": "Autres sessions fermées",
  "account.data_exported": "Export de ses données personnelles",
  "account.deleted": "Compte supprimé",
  "verification.insurance_renewed": "Nouvelle attestation d’assurance déposée",
  "verification.evidence_filed": "Justificatifs de vérification déposés",
};

/** The journal's French label of an action; an unknown key (a newer version's) reads as such. */
export function auditActionLabel(action: string): string {
  return (AUDIT_ACTION_LABELS as Record<string, string>)[action] ?? ACCOUNT_EVENT_LABELS[action] ?? `Autre action (${action})`;
}

export const AUDIT_TARGET_LABELS: Record<string, string> = {
  profile: "Profil",
  deal: "Transaction",
  recommendations: "Recommandations",
  user: "Compte",
  mediation: "Médiation",
  rating: "Évaluation",
};

export const ACTOR_ROLE_LABELS = { admin: "administrateur", member: "membre", gone: "compte supprimé" } as const;

export function badgeVariantForStatus(status: string): "success" | "warning" | "destructive" | "secondary" {
  if (status === "validated" || status === "confirmed") return "success";
  if (status === "pending_validation" || status === "pending") return "warning";
  if (status === "rejected" || status === "suspended") return "destructive";
  return "secondary";
}

/** Audit details as short French lines (only the keys the back office writes). */
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
