// Display rules of directory cards and badges (spec §9). Pure, tested with tables of cases.
// Labels come resolved from the loaders: nothing here imports the reference tables, so that the
// public pages' browser bundles stay without them.
// Badges: ./badges.
import { plural, truncate } from "~/lib/text";

export const MAX_SECTORS_SHOWN = 3;
export const STANDARD_SECTOR_LABEL_MAX = 25;
export const INTERNAL_SECTOR_CHIP_MAX = 30;
export const PREMIUM_PRESENTATION_MAX = 200;
export const MAX_DEALS_SHOWN = 3;

export type SectorChips = { shown: string[]; hidden: string[]; moreLabel: string | null };

/**
 * At most 3 sector names (resolved by the caller), then '+N autres' ('+1 autre'); labels optionally cut
 * (standard card: 25). The hidden names are kept whole (tooltip).
 */
export function sectorChips(sectorNames: readonly string[] | null | undefined, maxLabel?: number): SectorChips {
  const names = sectorNames ?? [];
  const shown = names.slice(0, MAX_SECTORS_SHOWN).map((n) => (maxLabel ? truncate(n, maxLabel) : n));
  const hidden = names.slice(MAX_SECTORS_SHOWN);
  return { shown, hidden, moreLabel: hidden.length > 0 ? `+${hidden.length} ${plural(hidden.length, "autre")}` : null };
}

/** Premium card: presentation cut at 200 characters with 'Lire la suite'. */
export function presentationExcerpt(text: string | null | undefined): { text: string; truncated: boolean } {
  const value = (text ?? "").trim();
  if (value.length <= PREMIUM_PRESENTATION_MAX) return { text: value, truncated: false };
  return { text: truncate(value, PREMIUM_PRESENTATION_MAX), truncated: true };
}

/** Premium card: at most 3 validated deals then '+N autres transactions certifiées' ('+1 autre transaction certifiée'). */
export function dealsSummary<T>(deals: readonly T[], total = deals.length) {
  const shown = deals.slice(0, MAX_DEALS_SHOWN);
  const more = total - shown.length;
  return { shown, moreLabel: more > 0 ? `+${more} ${plural(more, "autre transaction certifiée", "autres transactions certifiées")}` : null };
}
