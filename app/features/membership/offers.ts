// The offers, stated once: prices with their tax basis, period, renewal, the
// founding price's guarantee, the money-back guarantee and what each plan includes. Every page
// and e-mail that quotes a price or a term reads it here; which offers a person is shown is the
// pure rule `offersFor`. Pure and client-safe (no server import).
import { FOUNDING_PLACES } from "~/features/onboarding/onboarding-steps";

export type College = "transmission_entreprises" | "transmission_commerces";

/**
 * The settings behind every figure. Prices are stated TTC: the specification gives 250 €/an
 * without a tax basis and the checkout charges 250 €, so the figure a member reads is what
 * the card is charged.
 */
export const OFFER_SETTINGS = {
  /** French standard VAT rate. */
  vatRate: 0.2,
  /** What one payment covers: one year of membership, no automatic renewal. */
  periodYears: 1,
  /** How long the founding price holds, from the first payment (specification §9: 3 years). */
  priceGuaranteeYears: 3,
  /** Money-back guarantee after payment (specification §9). */
  moneyBackDays: 30,
  foundingPlaces: FOUNDING_PLACES,
} as const;

/** Founding-member price, TTC, per year, whatever the college. */
export const FOUNDING_PRICE_EUROS = 250;
export const FOUNDING_PRICE_CENTS = FOUNDING_PRICE_EUROS * 100;
export const PAYMENT_CURRENCY = "eur";

/** Regular yearly prices (TTC) announced from 2025, by college. */
export const REGULAR_PRICES: Readonly<Record<College, number>> = {
  transmission_entreprises: 2500,
  transmission_commerces: 750,
};

export const COLLEGE_NAMES: Readonly<Record<College, string>> = {
  transmission_entreprises: "collège Entreprises",
  transmission_commerces: "collège Commerces",
};

/** Yearly saving of a founding member against the regular price of a college. */
export function foundingSaving(college: College): number {
  return REGULAR_PRICES[college] - FOUNDING_PRICE_EUROS;
}

/** Lowest and highest regular price. */
export function regularPriceRange(): { min: number; max: number } {
  const values = Object.values(REGULAR_PRICES);
  return { min: Math.min(...values), max: Math.max(...values) };
}

// ---------------------------------------------------------------------------------------------
// Amounts as written

const NBSP = "\u00a0";
const euros0 = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR", maximumFractionDigits: 0 });
const euros2 = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR", minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** "250 €" (whole euros, French format). */
export function euros(amount: number): string {
  return euros0.format(amount);
}

/** "20 %" */
export function vatRateLabel(rate: number = OFFER_SETTINGS.vatRate): string {
  return `${Math.round(rate * 1000) / 10}${NBSP}%`.replace(".", ",");
}

/** HT and VAT of a TTC amount, in cents (the VAT is the remainder, so HT + VAT = TTC exactly). */
export function splitTtc(ttcCents: number, rate: number = OFFER_SETTINGS.vatRate): { htCents: number; vatCents: number; ttcCents: number } {
  const htCents = Math.round(ttcCents / (1 + rate));
  return { htCents, vatCents: ttcCents - htCents, ttcCents };
}

/** "250 € TTC" */
export function ttc(amount: number): string {
  return `${euros(amount)} TTC`;
}

/** "250 € TTC par an" */
export function ttcPerYear(amount: number): string {
  return `${ttc(amount)} par an`;
}

/** "soit 208,33 € HT et 41,67 € de TVA à 20 %" */
export function vatBreakdown(ttcEuros: number, rate: number = OFFER_SETTINGS.vatRate): string {
  const { htCents, vatCents } = splitTtc(Math.round(ttcEuros * 100), rate);
  return `soit ${euros2.format(htCents / 100)} HT et ${euros2.format(vatCents / 100)} de TVA à ${vatRateLabel(rate)}`;
}

// ---------------------------------------------------------------------------------------------
// Plans and offers

export type PlanId = "freemium" | "premium" | "founding_member";

export const PLAN_NAMES: Readonly<Record<PlanId, string>> = {
  freemium: "Freemium",
  premium: "Premium",
  founding_member: "Membre fondateur",
};

const FREEMIUM_INCLUDES = ["3 opportunités par semestre", "3 nouveaux mandats par semestre", "Profil de base dans l’annuaire", "Accès à l’annuaire interne"];

const PREMIUM_INCLUDES = [
  "Opportunités illimitées dans votre collège",
  "Mandats illimités",
  "Profil enrichi\u00a0: logo, photo et présentations",
  "Transactions certifiées visibles sur votre profil",
  "Messagerie interne entre confrères",
  "Statistiques, modèles de documents et webinaires",
  "Mise en avant en tête de l’annuaire",
];

/** What founding members get beyond Premium (specification §6). */
const FOUNDING_EXTRAS = ["Badge de membre fondateur à vie", "Accès anticipé aux nouveautés", "Communication «\u00a0pionnier\u00a0» du réseau", "Invitation à l’événement annuel"];

/** What each plan includes, in the order the pages list it. */
export const PLAN_INCLUDES: Readonly<Record<PlanId, readonly string[]>> = {
  freemium: FREEMIUM_INCLUDES,
  premium: PREMIUM_INCLUDES,
  founding_member: [...PREMIUM_INCLUDES, ...FOUNDING_EXTRAS],
};

/** The founding offer's terms, each one sentence, the same on every page and e-mail. */
export const FOUNDING_TERMS = {
  price: ttcPerYear(FOUNDING_PRICE_EUROS),
  vat: vatBreakdown(FOUNDING_PRICE_EUROS),
  payment: `Paiement unique de ${ttc(FOUNDING_PRICE_EUROS)} à la commande\u00a0: il couvre une année d’adhésion, sans renouvellement automatique.`,
  guarantee: `Tarif fondateur garanti ${OFFER_SETTINGS.priceGuaranteeYears}${NBSP}ans\u00a0: pendant vos ${OFFER_SETTINGS.priceGuaranteeYears} premières années d’adhésion, chaque renouvellement reste à ${ttcPerYear(FOUNDING_PRICE_EUROS)}.`,
  guaranteeShort: `tarif garanti ${OFFER_SETTINGS.priceGuaranteeYears}${NBSP}ans`,
  moneyBack: `Satisfait ou remboursé pendant ${OFFER_SETTINGS.moneyBackDays}${NBSP}jours\u00a0: remboursement intégral sur simple demande dans les ${OFFER_SETTINGS.moneyBackDays}${NBSP}jours qui suivent le paiement.`,
  moneyBackShort: `satisfait ou remboursé ${OFFER_SETTINGS.moneyBackDays}${NBSP}jours`,
  regular: `Tarif normal à partir de 2025\u00a0: ${ttcPerYear(REGULAR_PRICES.transmission_entreprises)} pour le ${COLLEGE_NAMES.transmission_entreprises}, ${ttcPerYear(REGULAR_PRICES.transmission_commerces)} pour le ${COLLEGE_NAMES.transmission_commerces}.`,
  places: `Réservée aux ${OFFER_SETTINGS.foundingPlaces} premiers membres.`,
} as const;

/** One line for a summary ("250 € TTC par an, tarif garanti 3 ans, satisfait ou remboursé 30 jours"). */
export const FOUNDING_SUMMARY = `${FOUNDING_TERMS.price}, ${FOUNDING_TERMS.guaranteeShort}, ${FOUNDING_TERMS.moneyBackShort}`;

export type OfferId = "freemium" | "founding";

/** Who is looking at the offers. */
export type OfferViewer =
  | { kind: "visitor" }
  | { kind: "applicant"; paid: boolean }
  | { kind: "member"; membership: string; paid: boolean };

/** The plan a membership type stands for (any other value reads as freemium, specification §3). */
export function planOf(membershipType: string): PlanId {
  return membershipType === "premium" || membershipType === "founding_member" ? membershipType : "freemium";
}

/**
 * The offers a person can take, first the one to push. A payment already received closes the
 * founding offer (activation pending); a Premium or founding member has nothing left to buy.
 */
export function offersFor(viewer: OfferViewer): OfferId[] {
  switch (viewer.kind) {
    case "visitor":
      return ["founding", "freemium"];
    case "applicant":
      return viewer.paid ? [] : ["founding", "freemium"];
    case "member":
      return planOf(viewer.membership) === "freemium" && !viewer.paid ? ["founding"] : [];
  }
}
