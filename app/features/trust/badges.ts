// The badges of a profile (spec §3 "Badges derived"): kinds, French labels, what each means, and
// the rule of the derived ones. The behaviour badges (Fair Player, Top Performer, Confidentialité,
// Taux de réussite élevé) have their rules in features/trust/reputation-rules.
// The browser bundles of the public pages only carry the labels (the rules run in loaders).
import { REPUTATION_BADGE_LABELS, REPUTATION_BADGE_RULES, type ReputationBadge } from "./reputation-labels";

export type DerivedBadge = "founding-member" | "deals-certified" | "expert";
export type BadgeKind = DerivedBadge | ReputationBadge;

export const BADGE_LABELS: Record<DerivedBadge, string> = {
  "founding-member": "Founding Member",
  "deals-certified": "Deals Certifiés",
  expert: "Expert Agréé",
};

/** The label of any badge, derived or earned by behaviour. */
export const ALL_BADGE_LABELS: Record<BadgeKind, string> = { ...BADGE_LABELS, ...REPUTATION_BADGE_LABELS };

/**
 * What each badge means, shown where it is shown. 'Expert Agréé' is the specification's rule (more
 * than 3 sectors of expertise), not an official accreditation: the text says so.
 */
export const BADGE_MEANINGS: Record<BadgeKind, string> = {
  "founding-member": "Membre fondateur du réseau.",
  "deals-certified": "Au moins une transaction certifiée par l’équipe du réseau.",
  expert: "Plus de 3 secteurs d’expertise déclarés (ce n’est pas un agrément officiel).",
  ...REPUTATION_BADGE_RULES,
};

/** founding-member, deals-certified (≥ 1 certified deal), expert (more than 3 sectors). */
export function profileBadges(p: {
  membershipType: string | null | undefined;
  certifiedDealsCount: number;
  sectorsCount: number;
}): DerivedBadge[] {
  const out: DerivedBadge[] = [];
  if (p.membershipType === "founding_member") out.push("founding-member");
  if (p.certifiedDealsCount > 0) out.push("deals-certified");
  if (p.sectorsCount > 3) out.push("expert");
  return out;
}
