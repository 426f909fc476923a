import { describe, expect, it } from "vitest";
import {
  FOUNDING_PRICE_CENTS,
  FOUNDING_PRICE_EUROS,
  FOUNDING_SUMMARY,
  FOUNDING_TERMS,
  foundingSaving,
  OFFER_SETTINGS,
  offersFor,
  PLAN_INCLUDES,
  planOf,
  REGULAR_PRICES,
  regularPriceRange,
  splitTtc,
  vatBreakdown,
  type OfferViewer,
} from "./offers";

const NBSP = "\u00a0";
/** The figures with every (narrow) non-breaking space read as a space. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

describe("founding offer pricing", () => {
  it("is 250 € TTC a year (25 000 cents charged), whatever the college", () => {
    expect(FOUNDING_PRICE_EUROS).toBe(250);
    expect(FOUNDING_PRICE_CENTS).toBe(25_000);
    expect(plain(FOUNDING_TERMS.price)).toBe("250 € TTC par an");
  });

  it.each([
    ["transmission_entreprises", 2500, 2250],
    ["transmission_commerces", 750, 500],
  ] as const)("%s: regular %i €/an, saving %i €", (college, regular, saving) => {
    expect(REGULAR_PRICES[college]).toBe(regular);
    expect(foundingSaving(college)).toBe(saving);
  });

  it("one guarantee duration (3 years), 30 days money back, 250 places", () => {
    expect(regularPriceRange()).toEqual({ min: 750, max: 2500 });
    expect(OFFER_SETTINGS).toMatchObject({ priceGuaranteeYears: 3, moneyBackDays: 30, foundingPlaces: 250, vatRate: 0.2 });
    expect(FOUNDING_SUMMARY).toContain(`tarif garanti 3${NBSP}ans`);
    expect(Object.values(FOUNDING_TERMS).join(" ")).not.toMatch(/5\s?ans/);
  });

  it("the payment is one year without automatic renewal, and the guarantee speaks of renewals (no contradiction)", () => {
    expect(FOUNDING_TERMS.payment).toMatch(/une année d’adhésion, sans renouvellement automatique/);
    expect(FOUNDING_TERMS.guarantee).toMatch(/chaque renouvellement reste à 250/);
  });
});

describe("HT, VAT and TTC", () => {
  it.each([
    // [TTC cents, rate, HT cents, VAT cents]
    [25_000, 0.2, 20_833, 4_167],
    [250_000, 0.2, 208_333, 41_667],
    [75_000, 0.2, 62_500, 12_500],
    [0, 0.2, 0, 0],
    [25_000, 0.1, 22_727, 2_273],
  ])("%i cents TTC at %s → %i HT + %i VAT", (ttcCents, rate, ht, vat) => {
    const split = splitTtc(ttcCents, rate);
    expect(split).toEqual({ htCents: ht, vatCents: vat, ttcCents });
    expect(split.htCents + split.vatCents).toBe(ttcCents);
  });

  it("writes the breakdown with the rate", () => {
    expect(plain(vatBreakdown(250))).toBe("soit 208,33 € HT et 41,67 € de TVA à 20 %");
    expect(vatBreakdown(250)).toContain(`20${NBSP}%`);
  });
});

describe("offersFor: offers only to those who can take them", () => {
  it.each<[string, OfferViewer, string[]]>([
    ["visitor", { kind: "visitor" }, ["founding", "freemium"]],
    ["applicant at the payment step", { kind: "applicant", paid: false }, ["founding", "freemium"]],
    ["applicant who paid", { kind: "applicant", paid: true }, []],
    ["freemium member", { kind: "member", membership: "freemium", paid: false }, ["founding"]],
    ["freemium member whose payment awaits activation", { kind: "member", membership: "freemium", paid: true }, []],
    ["unknown tier reads as freemium", { kind: "member", membership: "standard", paid: false }, ["founding"]],
    ["premium member (no founding badge to sell him)", { kind: "member", membership: "premium", paid: false }, []],
    ["founding member", { kind: "member", membership: "founding_member", paid: true }, []],
  ])("%s → %j", (_label, viewer, offers) => {
    expect(offersFor(viewer)).toEqual(offers);
  });
});

describe("plans", () => {
  it.each([
    ["freemium", "freemium"],
    ["premium", "premium"],
    ["founding_member", "founding_member"],
    ["standard", "freemium"],
  ])("planOf(%s) = %s", (membership, plan) => {
    expect(planOf(membership)).toBe(plan);
  });

  it("the founding badge belongs to the founding plan only", () => {
    expect(PLAN_INCLUDES.founding_member).toContain("Badge de membre fondateur à vie");
    expect(PLAN_INCLUDES.premium.join(" ")).not.toMatch(/fondateur/);
    expect(PLAN_INCLUDES.founding_member.slice(0, PLAN_INCLUDES.premium.length)).toEqual([...PLAN_INCLUDES.premium]);
  });
});
