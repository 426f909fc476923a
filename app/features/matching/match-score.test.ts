import { describe, expect, it } from "vitest";
import {
  criteriaVerdicts,
  criterionText,
  isOffered,
  listCut,
  matchesShown,
  nextMatchesPage,
  matchScore,
  scoreBadge,
  sectorsFit,
  type BuyerCriteria,
  type CriteriaVerdicts,
  type SellerInfo,
} from "./match-score";
import { missingMatchCriteria } from "~/features/mandates/mandate-rules";

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

describe("sectorsFit: a seller outside the buyer's sectors is not offered when both name sectors (decision 046)", () => {
  it.each<[string, Partial<BuyerCriteria>, Partial<SellerInfo>, boolean]>([
    ["both name the same sector", { searchSectors: ["H", "I"] }, { companySector: "H" }, true],
    ["the seller's sector is not among the buyer's", { searchSectors: ["H", "I"] }, { companySector: "N" }, false],
    ["the buyer names none", {}, { companySector: "N" }, true],
    ["the buyer's list is empty", { searchSectors: [] }, { companySector: "N" }, true],
    ["the seller names none", { searchSectors: ["H"] }, {}, true],
    ["neither names one", {}, {}, true],
  ])("%s", (_name, buyer, seller, expected) => {
    expect(sectorsFit({ ...noBuyer, ...buyer }, { ...noSeller, ...seller })).toBe(expected);
  });

  it("keeps the score as the spec says and filters on top of it: transport buyer × security company", () => {
    // Territory, valuation and contribution met, sector not: 70 % yet not offered.
    const buyer = { ...fullBuyer, searchSectors: ["H", "I"] };
    const seller = { ...fullSeller, companySector: "N" };
    expect(matchScore(buyer, seller).total).toBe(70);
    expect(isOffered(buyer, seller)).toBe(false);
    expect(isOffered(fullBuyer, fullSeller)).toBe(true);
    // A score of 0 is not offered either.
    expect(isOffered(noBuyer, noSeller)).toBe(false);
  });
});

describe("criteriaVerdicts: met, not met or not specified, in words", () => {
  it.each<[string, Partial<BuyerCriteria>, Partial<SellerInfo>, CriteriaVerdicts]>([
    ["nothing filled", {}, {}, { sector: "unspecified", territory: "unspecified", valuation: "unspecified", contribution: "unspecified" }],
    ["everything met", fullBuyer, fullSeller, { sector: "met", territory: "met", valuation: "met", contribution: "met" }],
    [
      "filled on both sides, none met",
      { ...fullBuyer, searchSectors: ["Q"], searchTerritories: ["13"], targetAmountMax: 600_000, contributionMax: 150_000 },
      { ...fullSeller, requiredContributionMin: 200_000 },
      { sector: "unmet", territory: "unmet", valuation: "unmet", contribution: "unmet" },
    ],
    [
      "one side missing each",
      { searchSectors: ["C"], targetAmountMin: 1, contributionMin: 1, contributionMax: 2 },
      { companyTerritory: "75", valuationAmount: 1 },
      { sector: "unspecified", territory: "unspecified", valuation: "unspecified", contribution: "unspecified" },
    ],
    ["the whole of France is met", { searchTerritories: ["france"] }, { companyTerritory: "13" }, { sector: "unspecified", territory: "met", valuation: "unspecified", contribution: "unspecified" }],
  ])("%s", (_name, buyer, seller, expected) => {
    expect(criteriaVerdicts({ ...noBuyer, ...buyer }, { ...noSeller, ...seller })).toEqual(expected);
  });

  it("reads « Secteur : correspond », never raw points", () => {
    expect(criterionText("Secteur", "met")).toBe("Secteur\u00a0: correspond");
    expect(criterionText("Territoire", "unmet")).toBe("Territoire\u00a0: ne correspond pas");
    expect(criterionText("Montant", "unspecified")).toBe("Montant\u00a0: non précisé");
  });
});

describe("the panel's list against the card's count", () => {
  it.each<[string, string | null, number]>([
    ["first page", null, 5],
    ["one more page", "1", 25],
    ["two more pages", "2", 45],
    ["garbage", "abc", 5],
    ["negative", "-3", 5],
    ["past the maximum", "50", 100],
  ])("matchesShown: %s", (_name, more, expected) => {
    expect(matchesShown(more)).toBe(expected);
  });

  it.each<[number, number]>([
    [5, 1],
    [25, 2],
    [45, 3],
    [12, 2],
  ])("nextMatchesPage(%i) = %i, and it lists 20 more", (shown, next) => {
    expect(nextMatchesPage(shown)).toBe(next);
    if (shown % 20 === 5) expect(matchesShown(String(next))).toBe(shown + 20);
  });

  it.each<[number, number, { text: string | null; more: boolean }]>([
    [5, 5, { text: null, more: false }],
    [0, 0, { text: null, more: false }],
    [20, 31, { text: "20 premiers sur 31", more: true }],
    [40, 100, { text: "40 premiers sur plus de 99", more: true }],
    [100, 100, { text: "100 premiers sur plus de 99", more: false }],
  ])("listCut(%i shown, %i counted)", (shown, total, expected) => {
    expect(listCut(shown, total, 99)).toEqual(expected);
  });
});

describe("missingMatchCriteria: a buyer mandate that no seller can ever match", () => {
  type Input = Parameters<typeof missingMatchCriteria>[0];
  const blank: Input = { mandateType: "buyer", searchSectors: null, searchTerritories: null, targetAmountMin: null, targetAmountMax: null };
  it.each<[string, Partial<Input>, number]>([
    ["nothing", {}, 3],
    ["empty lists", { searchSectors: [], searchTerritories: [] }, 3],
    ["a sector", { searchSectors: ["C"] }, 0],
    ["a territory", { searchTerritories: ["france"] }, 0],
    ["a minimum amount", { targetAmountMin: 0 }, 0],
    ["a seller mandate", { mandateType: "seller" }, 0],
  ])("%s", (_name, partial, missing) => {
    expect(missingMatchCriteria({ ...blank, ...partial })).toHaveLength(missing);
  });
});
