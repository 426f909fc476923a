import { describe, expect, it } from "vitest";
import {
  FOUNDING_PRICE_CENTS,
  FOUNDING_PRICE_EUROS,
  foundingSaving,
  GUARANTEE_DAYS,
  PRICE_GUARANTEE_YEARS,
  REGULAR_PRICES,
  regularPriceRange,
} from "./pricing";

describe("founding offer pricing", () => {
  it("is 250 € a year (25 000 cents), whatever the college", () => {
    expect(FOUNDING_PRICE_EUROS).toBe(250);
    expect(FOUNDING_PRICE_CENTS).toBe(25_000);
  });

  it.each([
    ["transmission_entreprises", 2500, 2250],
    ["transmission_commerces", 750, 500],
  ] as const)("%s: regular %i €/an, saving %i €", (college, regular, saving) => {
    expect(REGULAR_PRICES[college]).toBe(regular);
    expect(foundingSaving(college)).toBe(saving);
  });

  it("regular price range and guarantees", () => {
    expect(regularPriceRange()).toEqual({ min: 750, max: 2500 });
    expect(GUARANTEE_DAYS).toBe(30);
    expect(PRICE_GUARANTEE_YEARS).toEqual({ onboarding: 3, premium: 5 });
  });
});
