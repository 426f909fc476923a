// The badges of a profile (spec §3 "Badges derived"): kinds, French labels and the rule. No
// import: the browser bundles of the public pages only carry the labels (the rule runs in loaders).

export type BadgeKind = "founding-member" | "deals-certified" | "expert";

export const BADGE_LABELS: Record<BadgeKind, string> = {
  "founding-member": "Founding Member",
  "deals-certified": "Deals Certifiés",
  expert: "Expert Agréé",
};

/** founding-member, deals-certified (≥ 1 certified deal), expert (more than 3 sectors). */
export function profileBadges(p: {
  membershipType: string | null | undefined;
  certifiedDealsCount: number;
  sectorsCount: number;
}): BadgeKind[] {
  const out: BadgeKind[] = [];
  if (p.membershipType === "founding_member") out.push("founding-member");
  if (p.certifiedDealsCount > 0) out.push("deals-certified");
  if (p.sectorsCount > 3) out.push("expert");
  return out;
}
