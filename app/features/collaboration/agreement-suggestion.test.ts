import { describe, expect, it } from "vitest";
import { amountBandOf, suggestAgreement, type AgreementSuggestion, type MandateFacts } from "./agreement-suggestion";

const seller = (over: Partial<MandateFacts> = {}): MandateFacts => ({
  side: "b",
  type: "seller",
  college: "transmission_entreprises",
  valuation: null,
  targetMin: null,
  targetMax: null,
  ...over,
});
const buyer = (over: Partial<MandateFacts> = {}): MandateFacts => ({
  side: "a",
  type: "buyer",
  college: "transmission_entreprises",
  valuation: null,
  targetMin: null,
  targetMax: null,
  ...over,
});

describe("the amounts band of an amount", () => {
  it.each([
    [null, null],
    [-1, null],
    [0, "lt_500k"],
    [499_999, "lt_500k"],
    [500_000, "500k_1m"],
    [1_000_000, "500k_1m"],
    [1_000_001, "1m_3m"],
    [3_000_000, "1m_3m"],
    [4_000_000, "3m_10m"],
    [10_000_000, "3m_10m"],
    [10_000_001, "gt_10m"],
  ] as const)("%s € → %s", (euros, band) => expect(amountBandOf(euros)).toBe(band));
});

describe("the suggestion read from the two mandates", () => {
  const cases: [string, MandateFacts[], AgreementSuggestion][] = [
    [
      "a share deal: a 4 M€ company, both members of the company college",
      [buyer(), seller({ valuation: 4_000_000 })],
      { operationType: "titres", sellerSide: "b", amountBand: "3m_10m" },
    ],
    [
      "a goodwill sale: the seller's holder is of the goodwill college",
      [buyer({ side: "b" }), seller({ side: "a", college: "transmission_commerces", valuation: 350_000 })],
      { operationType: "fonds_de_commerce", sellerSide: "a", amountBand: "lt_500k" },
    ],
    [
      "colleges differ: the seller's (the target is their client) wins",
      [buyer({ college: "transmission_commerces" }), seller({ college: "transmission_entreprises" })],
      { operationType: "titres", sellerSide: "b", amountBand: null },
    ],
    [
      "the seller's mandate is gone: the college both share, the buyer's range within one band",
      [buyer({ college: "transmission_commerces", targetMin: 1_200_000, targetMax: 2_500_000 })],
      { operationType: "fonds_de_commerce", sellerSide: null, amountBand: "1m_3m" },
    ],
    [
      "the buyer's range spans two bands: no band",
      [buyer({ targetMin: 800_000, targetMax: 4_000_000 }), seller()],
      { operationType: "titres", sellerSide: "b", amountBand: null },
    ],
    [
      "the buyer's range is open on one side: no band",
      [buyer({ targetMin: 800_000 }), seller()],
      { operationType: "titres", sellerSide: "b", amountBand: null },
    ],
    [
      "the seller's valuation wins over the buyer's range",
      [buyer({ targetMin: 100_000, targetMax: 200_000 }), seller({ valuation: 12_000_000 })],
      { operationType: "titres", sellerSide: "b", amountBand: "gt_10m" },
    ],
    ["two seller mandates: nobody's role is assumed", [seller({ side: "a" }), seller()], { operationType: "titres", sellerSide: null, amountBand: null }],
    [
      "two buyer mandates of two colleges: nothing is assumed",
      [buyer(), buyer({ side: "b", college: "transmission_commerces" })],
      { operationType: null, sellerSide: null, amountBand: null },
    ],
    ["both mandates gone: nothing is assumed (never a goodwill sale by default)", [], { operationType: null, sellerSide: null, amountBand: null }],
    [
      "the holder's college is unknown (account gone)",
      [buyer({ college: null }), seller({ college: null, valuation: 2_000_000 })],
      { operationType: null, sellerSide: "b", amountBand: "1m_3m" },
    ],
  ];
  it.each(cases)("%s", (_name, mandates, expected) => expect(suggestAgreement(mandates)).toEqual(expected));
});
