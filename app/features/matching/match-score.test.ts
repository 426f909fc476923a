import { describe, expect, it } from "vitest";
import { matchScore, scoreBadge, type BuyerCriteria, type SellerInfo } from "./match-score";

const noBuyer: BuyerCriteria = {
  searchSectors: null,
  searchTerritories: null,
  targetAmountMin: null,
  targetAmountMax: null,
  contributionMin: null,
  contributionMax: null,
};
const noSeller: SellerInfo = {
  companySector: null,
  companyTerritory: null,
  valuationAmount: null,
  requiredContributionMin: null,
  requiredContributionMax: null,
};

const fullBuyer: BuyerCriteria = {
  searchSectors: ["C", "G"],
  searchTerritories: ["75", "92"],
  targetAmountMin: 500_000,
  targetAmountMax: 2_000_000,
  contributionMin: 100_000,
  contributionMax: 300_000,
};
const fullSeller: SellerInfo = {
  companySector: "C",
  companyTerritory: "92",
  valuationAmount: 1_200_000,
  requiredContributionMin: 200_000,
  requiredContributionMax: 400_000,
};

type Case = [string, Partial<BuyerCriteria>, Partial<SellerInfo>, [number, number, number, number, number]];

describe("matchScore (spec §9): each criterion alone, combinations, missing fields", () => {
  it.each<Case>([
    ["nothing filled", {}, {}, [0, 0, 0, 0, 0]],
    // Sector alone
    ["sector among the buyer's sectors", { searchSectors: ["C", "G"] }, { companySector: "G" }, [30, 0, 0, 0, 30]],
    ["sector not among them", { searchSectors: ["C"] }, { companySector: "G" }, [0, 0, 0, 0, 0]],
    ["sector: buyer has none", {}, { companySector: "C" }, [0, 0, 0, 0, 0]],
    ["sector: seller has none", { searchSectors: ["C"] }, {}, [0, 0, 0, 0, 0]],
    ["sector: empty buyer list", { searchSectors: [] }, { companySector: "C" }, [0, 0, 0, 0, 0]],
    // Territory alone
    ["territory among the buyer's", { searchTerritories: ["75", "92"] }, { companyTerritory: "92" }, [0, 20, 0, 0, 20]],
    ["territory elsewhere", { searchTerritories: ["75"] }, { companyTerritory: "69" }, [0, 0, 0, 0, 0]],
    ["buyer targets 'france'", { searchTerritories: ["france"] }, { companyTerritory: "69" }, [0, 20, 0, 0, 20]],
    ["buyer targets 'france_entiere'", { searchTerritories: ["france_entiere"] }, { companyTerritory: "971" }, [0, 20, 0, 0, 20]],
    ["'france' among departments", { searchTerritories: ["13", "france"] }, { companyTerritory: "59" }, [0, 20, 0, 0, 20]],
    ["'france' but seller has no territory", { searchTerritories: ["france"] }, {}, [0, 0, 0, 0, 0]],
    ["territory: buyer has none", {}, { companyTerritory: "75" }, [0, 0, 0, 0, 0]],
    // Valuation alone
    ["valuation inside the range", { targetAmountMin: 500_000, targetAmountMax: 2_000_000 }, { valuationAmount: 1_000_000 }, [0, 0, 25, 0, 25]],
    ["valuation on the lower bound", { targetAmountMin: 500_000, targetAmountMax: 2_000_000 }, { valuationAmount: 500_000 }, [0, 0, 25, 0, 25]],
    ["valuation on the upper bound", { targetAmountMin: 500_000, targetAmountMax: 2_000_000 }, { valuationAmount: 2_000_000 }, [0, 0, 25, 0, 25]],
    ["valuation below", { targetAmountMin: 500_000, targetAmountMax: 2_000_000 }, { valuationAmount: 499_999 }, [0, 0, 0, 0, 0]],
    ["valuation above", { targetAmountMin: 500_000, targetAmountMax: 2_000_000 }, { valuationAmount: 2_000_001 }, [0, 0, 0, 0, 0]],
    ["valuation: range without maximum", { targetAmountMin: 500_000 }, { valuationAmount: 900_000 }, [0, 0, 0, 0, 0]],
    ["valuation: range without minimum", { targetAmountMax: 2_000_000 }, { valuationAmount: 900_000 }, [0, 0, 0, 0, 0]],
    ["valuation: seller has none", { targetAmountMin: 1, targetAmountMax: 2 }, {}, [0, 0, 0, 0, 0]],
    ["valuation: 0 is a value", { targetAmountMin: 0, targetAmountMax: 100 }, { valuationAmount: 0 }, [0, 0, 25, 0, 25]],
    // Contribution alone
    ["contribution ranges overlap", { contributionMin: 100_000, contributionMax: 300_000 }, { requiredContributionMin: 200_000, requiredContributionMax: 400_000 }, [0, 0, 0, 25, 25]],
    ["contribution ranges touch", { contributionMin: 100_000, contributionMax: 200_000 }, { requiredContributionMin: 200_000, requiredContributionMax: 400_000 }, [0, 0, 0, 25, 25]],
    ["seller's range inside the buyer's", { contributionMin: 0, contributionMax: 1_000_000 }, { requiredContributionMin: 200_000, requiredContributionMax: 400_000 }, [0, 0, 0, 25, 25]],
    ["contribution: buyer's range below", { contributionMin: 50_000, contributionMax: 150_000 }, { requiredContributionMin: 200_000, requiredContributionMax: 400_000 }, [0, 0, 0, 0, 0]],
    ["contribution: buyer's range above", { contributionMin: 500_000, contributionMax: 600_000 }, { requiredContributionMin: 200_000, requiredContributionMax: 400_000 }, [0, 0, 0, 0, 0]],
    ["contribution: seller's range incomplete", { contributionMin: 100_000, contributionMax: 300_000 }, { requiredContributionMin: 200_000 }, [0, 0, 0, 0, 0]],
    ["contribution: buyer's range incomplete", { contributionMax: 300_000 }, { requiredContributionMin: 200_000, requiredContributionMax: 400_000 }, [0, 0, 0, 0, 0]],
    // Combinations
    ["sector + territory", { searchSectors: ["C"], searchTerritories: ["75"] }, { companySector: "C", companyTerritory: "75" }, [30, 20, 0, 0, 50]],
    ["sector + valuation", { searchSectors: ["C"], targetAmountMin: 1, targetAmountMax: 10 }, { companySector: "C", valuationAmount: 5 }, [30, 0, 25, 0, 55]],
    ["territory + valuation + contribution", { ...fullBuyer, searchSectors: ["Q"] }, fullSeller, [0, 20, 25, 25, 70]],
    ["everything: capped at 100", fullBuyer, fullSeller, [30, 20, 25, 25, 100]],
  ])("%s", (_name, buyer, seller, [sector, territory, valuation, contribution, total]) => {
    expect(matchScore({ ...noBuyer, ...buyer }, { ...noSeller, ...seller })).toEqual({ sector, territory, valuation, contribution, total });
  });

  it("never exceeds 100", () => {
    expect(matchScore(fullBuyer, fullSeller).total).toBe(100);
  });
});

describe("scoreBadge: strong ≥ 60, medium ≥ 30, weak below", () => {
  it.each([
    [0, "weak"],
    [25, "weak"],
    [29, "weak"],
    [30, "medium"],
    [55, "medium"],
    [59, "medium"],
    [60, "strong"],
    [75, "strong"],
    [100, "strong"],
  ] as const)("%i %% → %s", (total, badge) => {
    expect(scoreBadge(total)).toBe(badge);
  });
});
