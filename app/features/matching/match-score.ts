// The match score of spec §9, as a pure function. The same rule runs in SQL for the candidate
// set (matching.server.ts builds it from these weights); a test checks both agree.
import { NATIONWIDE_TERRITORIES } from "~/features/mandates/mandate-rules";

export const SCORE_WEIGHTS = { sector: 30, territory: 20, valuation: 25, contribution: 25 } as const;
export const SCORE_CAP = 100;
export const STRONG_MATCH = 60;
export const MEDIUM_MATCH = 30;
/** Owners of opposite mandates scoring at least this are alerted of a new mandate. */
export const ALERT_THRESHOLD = STRONG_MATCH;

export type BuyerCriteria = {
  searchSectors: readonly string[] | null;
  searchTerritories: readonly string[] | null;
  targetAmountMin: number | null;
  targetAmountMax: number | null;
  contributionMin: number | null;
  contributionMax: number | null;
};

export type SellerInfo = {
  companySector: string | null;
  companyTerritory: string | null;
  valuationAmount: number | null;
  requiredContributionMin: number | null;
  requiredContributionMax: number | null;
};

export type ScoreBreakdown = {
  sector: number;
  territory: number;
  valuation: number;
  contribution: number;
  total: number;
};

const has = <T>(v: T | null | undefined): v is T => v !== null && v !== undefined;

/**
 * 30 when the seller's sector is among the buyer's sectors; 20 when the seller's territory is
 * among the buyer's territories or the buyer targets the whole of France ('france' or
 * 'france_entiere'); 25 when the valuation lies within the buyer's target range (bounds
 * included); 25 when the buyer's contribution range overlaps the seller's required range
 * (touching bounds overlap). Each criterion needs its fields on both sides (a range needs both
 * bounds; 0 is a value, only a missing field is missing). Capped at 100.
 */
export function matchScore(buyer: BuyerCriteria, seller: SellerInfo): ScoreBreakdown {
  const sectors = buyer.searchSectors ?? [];
  const territories = buyer.searchTerritories ?? [];
  const sector = has(seller.companySector) && sectors.includes(seller.companySector) ? SCORE_WEIGHTS.sector : 0;
  const territory =
    has(seller.companyTerritory) &&
    (territories.includes(seller.companyTerritory) || territories.some((t) => NATIONWIDE_TERRITORIES.includes(t)))
      ? SCORE_WEIGHTS.territory
      : 0;
  const valuation =
    has(seller.valuationAmount) &&
    has(buyer.targetAmountMin) &&
    has(buyer.targetAmountMax) &&
    seller.valuationAmount >= buyer.targetAmountMin &&
    seller.valuationAmount <= buyer.targetAmountMax
      ? SCORE_WEIGHTS.valuation
      : 0;
  const contribution =
    has(buyer.contributionMin) &&
    has(buyer.contributionMax) &&
    has(seller.requiredContributionMin) &&
    has(seller.requiredContributionMax) &&
    buyer.contributionMin <= seller.requiredContributionMax &&
    seller.requiredContributionMin <= buyer.contributionMax
      ? SCORE_WEIGHTS.contribution
      : 0;
  return { sector, territory, valuation, contribution, total: Math.min(SCORE_CAP, sector + territory + valuation + contribution) };
}

/**
 * On top of the score (which stays the spec's): when both sides name sectors, a seller whose
 * sector is not among the buyer's is not offered at all — a transport buyer is never shown a
 * security company, whatever its territory and amounts. A side without a sector
 * leaves the candidate to the score.
 */
export function sectorsFit(buyer: Pick<BuyerCriteria, "searchSectors">, seller: Pick<SellerInfo, "companySector">): boolean {
  const sectors = buyer.searchSectors ?? [];
  if (sectors.length === 0 || !has(seller.companySector)) return true;
  return sectors.includes(seller.companySector);
}

/** Whether `seller` is offered to `buyer` (and the reverse): compatible on the score and on the sector. */
export function isOffered(buyer: BuyerCriteria, seller: SellerInfo, minScore = 1): boolean {
  return sectorsFit(buyer, seller) && matchScore(buyer, seller).total >= minScore;
}

export type CriterionKey = Exclude<keyof ScoreBreakdown, "total">;
export type CriterionVerdict = "met" | "unmet" | "unspecified";
export type CriteriaVerdicts = Record<CriterionKey, CriterionVerdict>;

/**
 * Each criterion in words: met when it earned its points, not specified when a side lacks the
 * fields it needs (so it could not be compared), not met otherwise.
 */
export function criteriaVerdicts(buyer: BuyerCriteria, seller: SellerInfo): CriteriaVerdicts {
  const score = matchScore(buyer, seller);
  const filled = (...values: unknown[]) => values.every((v) => has(v) && !(Array.isArray(v) && v.length === 0));
  const specified: Record<CriterionKey, boolean> = {
    sector: filled(buyer.searchSectors, seller.companySector),
    territory: filled(buyer.searchTerritories, seller.companyTerritory),
    valuation: filled(buyer.targetAmountMin, buyer.targetAmountMax, seller.valuationAmount),
    contribution: filled(buyer.contributionMin, buyer.contributionMax, seller.requiredContributionMin, seller.requiredContributionMax),
  };
  const verdict = (key: CriterionKey): CriterionVerdict => (score[key] > 0 ? "met" : specified[key] ? "unmet" : "unspecified");
  return { sector: verdict("sector"), territory: verdict("territory"), valuation: verdict("valuation"), contribution: verdict("contribution") };
}

export const CRITERION_VERDICT_LABELS: Record<CriterionVerdict, string> = {
  met: "correspond",
  unmet: "ne correspond pas",
  unspecified: "non précisé",
};

export type ScoreBadge = "strong" | "medium" | "weak";

/** 60 % or more strong, 30 % or more medium, below weak (spec §9). */
export function scoreBadge(total: number): ScoreBadge {
  if (total >= STRONG_MATCH) return "strong";
  if (total >= MEDIUM_MATCH) return "medium";
  return "weak";
}

export const SCORE_BADGE_LABELS: Record<ScoreBadge, string> = {
  strong: "Forte compatibilité",
  medium: "Compatibilité moyenne",
  weak: "Compatibilité faible",
};

/** The four criteria, in display order, for "show why". */
export const SCORE_CRITERIA = [
  { key: "sector", label: "Secteur", max: SCORE_WEIGHTS.sector },
  { key: "territory", label: "Territoire", max: SCORE_WEIGHTS.territory },
  { key: "valuation", label: "Montant", max: SCORE_WEIGHTS.valuation },
  { key: "contribution", label: "Apport", max: SCORE_WEIGHTS.contribution },
] as const satisfies ReadonlyArray<{ key: CriterionKey; label: string; max: number }>;

/** « Secteur : correspond » (a no-break space before the colon). */
export function criterionText(label: string, verdict: CriterionVerdict): string {
  return `${label}\u00a0: ${CRITERION_VERDICT_LABELS[verdict]}`;
}

/**
 * A panel shows the best few potential matches first, so that what needs the member stays in
 * view; « Voir les suivants » adds a page, up to a maximum.
 */
export const MATCHES_FIRST = 5;
export const MATCHES_PAGE_SIZE = 20;
export const MATCHES_SHOWN_MAX = 100;

/** The number shown after `more` clicks on « Voir les suivants » (a URL parameter: clamped). */
export function matchesShown(more: string | null): number {
  const n = Number.parseInt(more ?? "", 10);
  const clicks = Number.isFinite(n) && n > 0 ? n : 0;
  return Math.min(MATCHES_SHOWN_MAX, MATCHES_FIRST + clicks * MATCHES_PAGE_SIZE);
}

/** The `more` parameter of the next « Voir les suivants » when `shown` matches are listed. */
export function nextMatchesPage(shown: number): number {
  return Math.max(0, Math.ceil((shown - MATCHES_FIRST) / MATCHES_PAGE_SIZE)) + 1;
}

/**
 * What the panel says of its list against the count the card shows (`total`, counted up to
 * `cap` + 1): nothing when the whole list is there, else « 20 premiers sur 31 » (« sur plus de
 * 99 » past the cap), and whether « Voir les suivants » can show more.
 */
export function listCut(shown: number, total: number, cap: number): { text: string | null; more: boolean } {
  // Past the cap the count says « more than », so even a list as long as the count is cut.
  if (shown >= total && total <= cap) return { text: null, more: false };
  const of = total > cap ? `plus de ${cap}` : String(total);
  return { text: `${shown} premiers sur ${of}`, more: shown < MATCHES_SHOWN_MAX };
}
