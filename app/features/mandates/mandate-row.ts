// The mandate's shapes, all picked from the one row type Drizzle infers from the table, so a
// column changes in one place; type-only imports keep the schema out of the browser bundle.
import type { InferSelectModel } from "drizzle-orm";
import type { mandates } from "~/db/schema";

export type MandateRow = InferSelectModel<typeof mandates>;

/** The business criteria: what matching scores and what a counterpart may see. */
export type MandateCriteria = Pick<
  MandateRow,
  | "mandateType"
  | "searchSectors"
  | "searchTerritories"
  | "targetAmountMin"
  | "targetAmountMax"
  | "contributionMin"
  | "contributionMax"
  | "maUsage"
  | "companySector"
  | "companyTerritory"
  | "companyDescription"
  | "valuationAmount"
  | "requiredContributionMin"
  | "requiredContributionMax"
  | "projectTimeline"
  | "targetBuyerTypes"
>;

/** The figures on a mandate's card, counted by matching. */
export type MandateCardFigures = {
  /** Potential matches, as the panel lists them (at most MATCH_COUNT_CAP + 1: shown '99+'). */
  potentialMatches: number;
  /** Requests this mandate sent that still wait for an answer. */
  pendingSent: number;
};

/** What the owner fills in besides the criteria. */
export type MandateTerms = Pick<MandateRow, "startDate" | "endDate" | "clientCode" | "clientName" | "clientAddress" | "description">;
