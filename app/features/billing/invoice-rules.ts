// Invoices and credit notes: numbers, amounts and the mandatory
// mentions of a French invoice, as pure functions. The prices and the VAT rate come from the
// offers module; the PDF and the settings page print what these functions return.
import type { InvoiceSeller } from "~/db/schema/billing";
import type { PdfBlock } from "~/lib/pdf/blocks";
import { OFFER_SETTINGS, splitTtc, vatRateLabel } from "~/features/membership/offers";
import { formatDate, parisParts } from "~/lib/dates";

const NBSP = "\u00a0";

export type InvoiceKind = "invoice" | "credit_note";

/** The numbering series: invoices and credit notes each have their own, restarting every year. */
export const INVOICE_SERIES: Readonly<Record<InvoiceKind, string>> = { invoice: "F", credit_note: "A" };

export const INVOICE_KIND_LABELS: Readonly<Record<InvoiceKind, string>> = { invoice: "Facture", credit_note: "Avoir" };

/** "F-2026-000042": series, year of issue (Paris), number on six digits at least. */
export function formatInvoiceNumber(series: string, year: number, n: number): string {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`invoice number out of range: ${n}`);
  return `${series}-${year}-${String(n).padStart(6, "0")}`;
}

/** The numbering year of an issue instant: the calendar year in Paris. */
export function numberingYear(issuedAt: Date): number {
  return parisParts(issuedAt).year;
}

export type InvoiceAmounts = {
  unitHtCents: number;
  htCents: number;
  /** Basis points: 2000 = 20 %. */
  vatRateBp: number;
  vatCents: number;
  ttcCents: number;
};

/**
 * The amounts of a sale charged `ttcCents` (the offers' prices are TTC): HT rounded to the cent,
 * VAT the remainder, so HT + VAT = TTC exactly. Under the VAT franchise there is no VAT.
 */
export function invoiceAmounts(ttcCents: number, options: { vatFranchise: boolean; vatRate?: number }): InvoiceAmounts {
  if (!Number.isInteger(ttcCents) || ttcCents < 0) throw new RangeError(`amount out of range: ${ttcCents}`);
  if (options.vatFranchise) return { unitHtCents: ttcCents, htCents: ttcCents, vatRateBp: 0, vatCents: 0, ttcCents };
  const rate = options.vatRate ?? OFFER_SETTINGS.vatRate;
  const { htCents, vatCents } = splitTtc(ttcCents, rate);
  return { unitHtCents: htCents, htCents, vatRateBp: Math.round(rate * 10_000), vatCents, ttcCents };
}

const centsFormatter = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR", minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** "1 250,00 €" (French format, two decimals). */
export function centsLabel(cents: number): string {
  return centsFormatter.format(cents / 100);
}

/** "20 %" from basis points. */
export function vatRateBpLabel(bp: number): string {
  return vatRateLabel(bp / 10_000);
}

/** The end of the year of membership a payment covers (no automatic renewal). */
export function membershipEndsOn(paidAt: Date): string {
  const p = parisParts(paidAt);
  const end = new Date(Date.UTC(p.year + OFFER_SETTINGS.periodYears, p.month - 1, p.day));
  // 29 February paid, 28 February ends.
  if (end.getUTCMonth() !== p.month - 1) end.setUTCDate(0);
  return end.toISOString().slice(0, 10);
}

/** SIREN of a SIRET (its first nine digits), or null when it is not one. */
export function sirenOf(siret: string): string | null {
  const digits = siret.replace(/\D/g, "");
  return digits.length === 14 || digits.length === 9 ? digits.slice(0, 9) : null;
}

/** The seller as printed: the copy stored on the invoice. */
export type InvoiceSellerView = InvoiceSeller;

export type InvoiceDocument = InvoiceAmounts & {
  kind: InvoiceKind;
  number: string;
  /** A credit note's invoice number. */
  creditedNumber: string | null;
  seller: InvoiceSellerView;
  buyer: { name: string; company: string; address: string | null; email: string; siren: string | null };
  designation: string;
  quantity: number;
  vatFranchise: boolean;
  issuedAt: Date;
  settledAt: Date;
  receiptUrl: string | null;
  /** Members buy for their firm: the recovery indemnity applies (Code de commerce D. 441-5). */
  professionalBuyer: boolean;
};

export const INVOICE_MENTIONS = {
  franchise: "TVA non applicable, art. 293 B du CGI",
  noDiscount: `Paiement comptant à la commande${NBSP}; pas d’escompte pour paiement anticipé.`,
  penalties: "En cas de retard de paiement, pénalités de retard au taux de trois fois le taux d’intérêt légal (art. L. 441-10 du Code de commerce).",
  indemnity: `Pour les acheteurs professionnels, indemnité forfaitaire pour frais de recouvrement de 40${NBSP}€ (art. D. 441-5 du Code de commerce).`,
  missingAddress: "Adresse de facturation non communiquée",
} as const;

const line = (label: string, value: string) => `${label}${NBSP}: ${value}`;

/** The seller's identity lines: name and form, capital, head office, SIREN/SIRET, RCS, VAT number. */
export function sellerLines(s: InvoiceSellerView): string[] {
  const siren = sirenOf(s.siret);
  return [
    `${s.companyName}, ${s.legalForm} au capital de ${s.shareCapital}`,
    s.headOffice,
    [siren ? `SIREN ${siren}` : null, `SIRET ${s.siret}`, /^RCS\b/i.test(s.rcs) ? s.rcs : `RCS ${s.rcs}`].filter(Boolean).join(" — "),
    line("N° de TVA intracommunautaire", s.vatNumber),
    s.contactEmail,
  ];
}

/** The document, block by block (title, parties, line, totals, payment, mentions). */
export function invoiceBlocks(doc: InvoiceDocument): PdfBlock[] {
  const credit = doc.kind === "credit_note";
  const title = `${INVOICE_KIND_LABELS[doc.kind]} n° ${doc.number}`;
  const blocks: PdfBlock[] = [
    { kind: "title", text: title },
    { kind: "subtitle", text: line("Date d’émission", formatDate(doc.issuedAt)) },
  ];
  if (credit && doc.creditedNumber) blocks.push({ kind: "subtitle", text: `Avoir se rapportant à la facture n° ${doc.creditedNumber}` });
  blocks.push({ kind: "heading", text: "Vendeur" }, ...sellerLines(doc.seller).map((text): PdfBlock => ({ kind: "text", text })));
  blocks.push(
    { kind: "heading", text: "Client" },
    { kind: "text", text: doc.buyer.company },
    { kind: "text", text: line("À l’attention de", doc.buyer.name) },
    { kind: "text", text: doc.buyer.address ?? INVOICE_MENTIONS.missingAddress },
  );
  if (doc.buyer.siren) blocks.push({ kind: "text", text: `SIREN ${doc.buyer.siren}` });
  blocks.push({ kind: "text", text: doc.buyer.email });
  blocks.push(
    { kind: "heading", text: credit ? "Désignation (annulée par cet avoir)" : "Désignation" },
    { kind: "text", text: doc.designation },
    { kind: "text", text: line("Quantité", String(doc.quantity)) },
    { kind: "text", text: line("Prix unitaire HT", centsLabel(doc.unitHtCents)) },
  );
  if (!doc.vatFranchise) blocks.push({ kind: "text", text: line("Taux de TVA", vatRateBpLabel(doc.vatRateBp)) });
  blocks.push({ kind: "heading", text: credit ? "Montants remboursés" : "Montants" }, { kind: "text", text: line("Total HT", centsLabel(doc.htCents)) });
  if (doc.vatFranchise) {
    blocks.push({ kind: "text", text: line("Total à payer", centsLabel(doc.ttcCents)) }, { kind: "text", text: INVOICE_MENTIONS.franchise });
  } else {
    blocks.push(
      { kind: "text", text: line(`Montant de la TVA (${vatRateBpLabel(doc.vatRateBp)})`, centsLabel(doc.vatCents)) },
      { kind: "text", text: line("Total TTC", centsLabel(doc.ttcCents)) },
    );
  }
  blocks.push({ kind: "heading", text: credit ? "Remboursement" : "Paiement" });
  blocks.push({
    kind: "text",
    text: credit ? line("Date de remboursement", formatDate(doc.settledAt)) : `${line("Date de paiement", formatDate(doc.settledAt))} — facture acquittée`,
  });
  if (doc.receiptUrl) blocks.push({ kind: "small", text: line("Reçu du prestataire de paiement", doc.receiptUrl) });
  if (!credit) {
    blocks.push({ kind: "heading", text: "Conditions" }, { kind: "small", text: INVOICE_MENTIONS.noDiscount }, { kind: "small", text: INVOICE_MENTIONS.penalties });
    if (doc.professionalBuyer) blocks.push({ kind: "small", text: INVOICE_MENTIONS.indemnity });
  }
  return blocks;
}

/** The PDF's file name ("facture-F-2026-000042.pdf"). */
export function invoiceFileName(kind: InvoiceKind, number: string): string {
  return `${kind === "credit_note" ? "avoir" : "facture"}-${number}.pdf`;
}
