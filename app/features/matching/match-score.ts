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
  { key: "valuation", label: "Valorisation", max: SCORE_WEIGHTS.valuation },
  { key: "contribution", label: "Apport", max: SCORE_WEIGHTS.contribution },
] as const satisfies ReadonlyArray<{ key: keyof Omit<ScoreBreakdown, "total">; label: string; max: number }>;
