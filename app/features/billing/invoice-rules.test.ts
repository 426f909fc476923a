import { describe, expect, it } from "vitest";
import {
  centsLabel,
  formatInvoiceNumber,
  invoiceAmounts,
  invoiceBlocks,
  type InvoiceDocument,
  membershipEndsOn,
  numberingYear,
  sirenOf,
  vatRateBpLabel,
} from "./invoice-rules";

const NBSP = "\u00a0";
const NNBSP = "\u202f";

describe("invoiceAmounts: HT rounded to the cent, VAT the remainder, HT + VAT = TTC", () => {
  it.each<[string, number, { vatFranchise: boolean; vatRate?: number }, [number, number, number, number]]>([
    ["founding price, 20 %", 25_000, { vatFranchise: false }, [20_833, 4_167, 25_000, 2000]],
    ["regular price (Commerces), 20 %", 75_000, { vatFranchise: false }, [62_500, 12_500, 75_000, 2000]],
    ["regular price (Entreprises), 20 %", 250_000, { vatFranchise: false }, [208_333, 41_667, 250_000, 2000]],
    ["one cent: HT rounds up, no VAT left", 1, { vatFranchise: false }, [1, 0, 1, 2000]],
    ["five cents", 5, { vatFranchise: false }, [4, 1, 5, 2000]],
    ["zero", 0, { vatFranchise: false }, [0, 0, 0, 2000]],
    ["reduced rate 5,5 %", 10_000, { vatFranchise: false, vatRate: 0.055 }, [9_479, 521, 10_000, 550]],
    ["VAT franchise: no VAT", 25_000, { vatFranchise: true }, [25_000, 0, 25_000, 0]],
  ])("%s", (_label, ttc, options, [ht, vat, total, bp]) => {
    const a = invoiceAmounts(ttc, options);
    expect([a.htCents, a.vatCents, a.ttcCents, a.vatRateBp]).toEqual([ht, vat, total, bp]);
    expect(a.unitHtCents).toBe(ht);
    expect(a.htCents + a.vatCents).toBe(a.ttcCents);
  });

  it.each([-1, 0.5, Number.NaN])("refuses %s cents", (cents) => {
    expect(() => invoiceAmounts(cents, { vatFranchise: false })).toThrow(RangeError);
  });
});

describe("numbers", () => {
  it.each<[string, number, number, string]>([
    ["F", 2026, 1, "F-2026-000001"],
    ["F", 2026, 42, "F-2026-000042"],
    ["A", 2027, 3, "A-2027-000003"],
    ["F", 2026, 999_999, "F-2026-999999"],
    ["F", 2026, 1_234_567, "F-2026-1234567"],
  ])("%s %i n°%i → %s", (series, year, n, expected) => {
    expect(formatInvoiceNumber(series, year, n)).toBe(expected);
  });

  it.each([0, -1, 1.5])("refuses number %s", (n) => {
    expect(() => formatInvoiceNumber("F", 2026, n)).toThrow(RangeError);
  });

  it.each<[string, number]>([
    ["2026-12-31T22:59:00Z", 2026],
    ["2026-12-31T23:30:00Z", 2027], // already 1 January in Paris
    ["2026-06-30T21:59:00Z", 2026],
  ])("the numbering year of %s is %i (Paris)", (instant, year) => {
    expect(numberingYear(new Date(instant))).toBe(year);
  });
});

describe("labels and dates", () => {
  it.each<[number, string]>([
    [25_000, `250,00${NBSP}€`],
    [20_833, `208,33${NBSP}€`],
    [125_000, `1${NNBSP}250,00${NBSP}€`],
    [0, `0,00${NBSP}€`],
  ])("centsLabel(%i) = %s", (cents, label) => {
    expect(centsLabel(cents)).toBe(label);
  });

  it.each<[number, string]>([
    [2000, `20${NBSP}%`],
    [550, `5,5${NBSP}%`],
  ])("vatRateBpLabel(%i) = %s", (bp, label) => {
    expect(vatRateBpLabel(bp)).toBe(label);
  });

  it.each<[string, string]>([
    ["2026-11-28T10:00:00Z", "2027-11-28"],
    ["2026-12-31T23:30:00Z", "2028-01-01"], // paid on 1 January 2027 in Paris
    ["2028-02-29T12:00:00Z", "2029-02-28"],
  ])("a payment of %s covers the membership until %s", (paidAt, end) => {
    expect(membershipEndsOn(new Date(paidAt))).toBe(end);
  });

  it.each<[string, string | null]>([
    ["123 456 789 00012", "123456789"],
    ["12345678900012", "123456789"],
    ["123456789", "123456789"],
    ["[Numéro SIRET — à compléter]", null],
  ])("sirenOf(%s) = %s", (siret, siren) => {
    expect(sirenOf(siret)).toBe(siren);
  });
});

const base: InvoiceDocument = {
  kind: "invoice",
  number: "F-2026-000042",
  creditedNumber: null,
  seller: {
    companyName: "Réseau Transmission SAS",
    legalForm: "SAS",
    shareCapital: "10 000 €",
    rcs: "Paris 123 456 789",
    siret: "123 456 789 00012",
    vatNumber: "FR12123456789",
    headOffice: "1 rue de la Paix, 75002 Paris",
    contactEmail: "contact@exemple.fr",
  },
  buyer: { name: "Jeanne Martin", company: "Martin Conseil", address: "3 place Bellecour, 69002 Lyon", email: "jeanne@exemple.fr", siren: "987654321" },
  designation: "Adhésion membre fondateur — 1 an",
  quantity: 1,
  ...invoiceAmounts(25_000, { vatFranchise: false }),
  vatFranchise: false,
  issuedAt: new Date("2026-11-28T10:00:00Z"),
  settledAt: new Date("2026-11-28T09:59:00Z"),
  receiptUrl: null,
  professionalBuyer: true,
};

const textOf = (doc: InvoiceDocument) => invoiceBlocks(doc).map((b) => b.text).join("\n");

describe("invoiceBlocks: the mandatory mentions", () => {
  it("an invoice under the normal VAT regime", () => {
    const text = textOf(base);
    for (const mention of [
      "Facture n° F-2026-000042",
      `Date d’émission${NBSP}: 28/11/2026`,
      "Réseau Transmission SAS, SAS au capital de 10 000 €",
      "SIREN 123456789 — SIRET 123 456 789 00012 — RCS Paris 123 456 789",
      `N° de TVA intracommunautaire${NBSP}: FR12123456789`,
      "Martin Conseil",
      "3 place Bellecour, 69002 Lyon",
      "SIREN 987654321",
      "Adhésion membre fondateur — 1 an",
      `Prix unitaire HT${NBSP}: 208,33${NBSP}€`,
      `Taux de TVA${NBSP}: 20${NBSP}%`,
      `Total HT${NBSP}: 208,33${NBSP}€`,
      `Montant de la TVA (20${NBSP}%)${NBSP}: 41,67${NBSP}€`,
      `Total TTC${NBSP}: 250,00${NBSP}€`,
      `Date de paiement${NBSP}: 28/11/2026`,
      "trois fois le taux d’intérêt légal",
      `indemnité forfaitaire pour frais de recouvrement de 40${NBSP}€`,
      "pas d’escompte",
    ]) {
      expect(text).toContain(mention);
    }
    expect(text).not.toContain("293 B");
  });

  it("an RCS setting written with its prefix is not prefixed twice", () => {
    expect(textOf({ ...base, seller: { ...base.seller, rcs: "RCS Paris 123 456 789" } })).toContain("— RCS Paris 123 456 789");
    expect(textOf({ ...base, seller: { ...base.seller, rcs: "RCS Paris 123 456 789" } })).not.toContain("RCS RCS");
  });

  it("under the VAT franchise: the article 293 B mention, no VAT line", () => {
    const text = textOf({ ...base, ...invoiceAmounts(25_000, { vatFranchise: true }), vatFranchise: true });
    expect(text).toContain("TVA non applicable, art. 293 B du CGI");
    expect(text).toContain(`Total à payer${NBSP}: 250,00${NBSP}€`);
    expect(text).not.toMatch(/Taux de TVA|Montant de la TVA|Total TTC/);
  });

  it("no recovery indemnity for a consumer; a missing address is said", () => {
    const text = textOf({ ...base, professionalBuyer: false, buyer: { ...base.buyer, address: null } });
    expect(text).not.toContain("indemnité forfaitaire");
    expect(text).toContain("Adresse de facturation non communiquée");
  });

  it("a credit note references its invoice and states the refund", () => {
    const text = textOf({ ...base, kind: "credit_note", number: "A-2026-000001", creditedNumber: "F-2026-000042", receiptUrl: "https://pay.stripe.com/receipts/x" });
    expect(text).toContain("Avoir n° A-2026-000001");
    expect(text).toContain("Avoir se rapportant à la facture n° F-2026-000042");
    expect(text).toContain(`Date de remboursement${NBSP}: 28/11/2026`);
    expect(text).toContain(`Total TTC${NBSP}: 250,00${NBSP}€`);
    expect(text).toContain("https://pay.stripe.com/receipts/x");
  });
});
