// Display rules of directory cards and badges (spec §9). Pure, tested with tables of cases.
import { sectorName } from "~/db/reference";
import { truncate } from "~/lib/text";

export const MAX_SECTORS_SHOWN = 3;
export const STANDARD_SECTOR_LABEL_MAX = 25;
export const INTERNAL_SECTOR_CHIP_MAX = 30;
export const PREMIUM_PRESENTATION_MAX = 200;
export const MAX_DEALS_SHOWN = 3;

export type SectorChips = { shown: string[]; hidden: string[]; moreLabel: string | null };

/** At most 3 sector names, then '+N autres'; labels optionally cut (standard card: 25). */
export function sectorChips(codes: readonly string[] | null | undefined, maxLabel?: number): SectorChips {
  const names = (codes ?? []).map((c) => sectorName(c));
  const shown = names.slice(0, MAX_SECTORS_SHOWN).map((n) => (maxLabel ? truncate(n, maxLabel) : n));
  const hidden = names.slice(MAX_SECTORS_SHOWN);
  return { shown, hidden, moreLabel: hidden.length > 0 ? `+${hidden.length} autres` : null };
}

/** Premium card: presentation cut at 200 characters with 'Lire la suite'. */
export function presentationExcerpt(text: string | null | undefined): { text: string; truncated: boolean } {
  const value = (text ?? "").trim();
  if (value.length <= PREMIUM_PRESENTATION_MAX) return { text: value, truncated: false };
  return { text: truncate(value, PREMIUM_PRESENTATION_MAX), truncated: true };
}

/** Premium card: at most 3 validated deals then '+N autres transactions certifiées'. */
export function dealsSummary<T>(deals: readonly T[], total = deals.length) {
  const shown = deals.slice(0, MAX_DEALS_SHOWN);
  const more = total - shown.length;
  return { shown, moreLabel: more > 0 ? `+${more} autres transactions certifiées` : null };
}

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
