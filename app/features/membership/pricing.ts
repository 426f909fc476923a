// Founding-member offer (spec §9). Pure: shared by the pages and the checkout.
export type College = "transmission_entreprises" | "transmission_commerces";

/** Founding-member price, per year, whatever the college. */
export const FOUNDING_PRICE_EUROS = 250;
export const FOUNDING_PRICE_CENTS = FOUNDING_PRICE_EUROS * 100;
export const PAYMENT_CURRENCY = "eur";

/** Regular yearly prices announced from 2025, by college. */
export const REGULAR_PRICES: Readonly<Record<College, number>> = {
  transmission_entreprises: 2500,
  transmission_commerces: 750,
};

/** Money-back guarantee after payment. */
export const GUARANTEE_DAYS = 30;

/** How long the founding price is guaranteed: 3 years on onboarding/landing, 5 on /premium (spec §9). */
export const PRICE_GUARANTEE_YEARS = { onboarding: 3, premium: 5 } as const;

/** Yearly saving of a founding member against the regular price of a college. */
export function foundingSaving(college: College): number {
  return REGULAR_PRICES[college] - FOUNDING_PRICE_EUROS;
}

/** Lowest and highest regular price ("750 € to 2 500 € per year" on /premium). */
export function regularPriceRange(): { min: number; max: number } {
  const values = Object.values(REGULAR_PRICES);
  return { min: Math.min(...values), max: Math.max(...values) };
}
