// French labels of the back office (statuses, payment states); the audit actions' labels are
// declared with the actions (app/lib/audit/audit-events.ts). Pure: used by the
// route components and by the CSV export.

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

export const ACTOR_ROLE_LABELS = { admin: "administrateur", member: "membre", gone: "compte supprimé" } as const;

export function badgeVariantForStatus(status: string): "success" | "warning" | "destructive" | "secondary" {
  if (status === "validated" || status === "confirmed") return "success";
  if (status === "pending_validation" || status === "pending") return "warning";
  if (status === "rejected" || status === "suspended") return "destructive";
  return "secondary";
}
