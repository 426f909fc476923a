// The texts of reputation that the public pages show (badge names and rules, the ratings summary):
// kept apart from reputation-rules.ts (which re-exports them) so that the directory's and the
// profile's JavaScript carries these labels only, not the rules, messages and limits.

export type ReputationBadge = "fair-player" | "top-performer" | "confidential" | "high-success-rate";
export const REPUTATION_BADGES: readonly ReputationBadge[] = ["fair-player", "top-performer", "confidential", "high-success-rate"];

export const REPUTATION_BADGE_LABELS: Record<ReputationBadge, string> = {
  "fair-player": "Fair Player",
  "top-performer": "Top Performer",
  confidential: "Confidentialité",
  "high-success-rate": "Taux de réussite élevé",
};

/** Each badge's rule, in French: shown where the badge is shown and published on /tiers-confiance. */
export const REPUTATION_BADGE_RULES: Record<ReputationBadge, string> = {
  "fair-player":
    "Aucune médiation tranchée en sa défaveur, et une note moyenne de confidentialité d’au moins 4/5 sur au moins 3 évaluations de confrères.",
  "top-performer": "Parmi les 10\u00a0% de membres ayant conclu le plus de dossiers sur les 12 derniers mois, avec au moins 3 dossiers conclus.",
  confidential:
    "Engagement de confidentialité signé dans chacun de ses dossiers (au moins un), et aucun manquement à la confidentialité retenu en médiation.",
  "high-success-rate": "Au moins 50\u00a0% de ses dossiers terminés l’ont été par une conclusion, sur au moins 5 dossiers terminés.",
};

/** "4,3/5 (12 évaluations)" — one decimal, French format. */
export function ratingSummaryLabel(average: number | null, count: number): string | null {
  if (average === null || count === 0) return null;
  const avg = new Intl.NumberFormat("fr-FR", { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(Math.round(average * 10) / 10);
  return `${avg}/5 (${count} ${count > 1 ? "évaluations" : "évaluation"})`;
}
