// Issuing invoices and credit notes, always inside the transaction that records
// the payment or its refund: the number is taken from the counter row under its lock, so numbers
// follow each other without gaps, and a transaction that rolls back gives its number back.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { billingDetails, invoiceCounters, invoices, payments, profiles, user, verificationEvidence, type InvoiceSeller } from "~/db/schema";
import { FOUNDING_PRODUCT_NAME } from "~/features/membership/payment-provider.server";
import { getEnv } from "~/lib/env.server";
import { formatInvoiceNumber, INVOICE_SERIES, invoiceAmounts, numberingYear, type InvoiceKind } from "./invoice-rules";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** The next number of a series for the year of `issuedAt`; only valid inside the caller's transaction. */
export async function allocateInvoiceNumber(tx: Tx, kind: InvoiceKind, issuedAt: Date): Promise<string> {
  const series = INVOICE_SERIES[kind];
  const year = numberingYear(issuedAt);
  const [row] = await tx
    .insert(invoiceCounters)
    .values({ series, year, lastNumber: 1 })
    .onConflictDoUpdate({ target: [invoiceCounters.series, invoiceCounters.year], set: { lastNumber: sql`${invoiceCounters.lastNumber} + 1` } })
    .returning({ n: invoiceCounters.lastNumber });
  return formatInvoiceNumber(series, year, row!.n);
}

function sellerNow(): InvoiceSeller {
  const l = getEnv().legal;
  return {
    companyName: l.companyName,
    legalForm: l.legalForm,
    shareCapital: l.shareCapital,
    rcs: l.rcs,
    siret: l.siret,
    vatNumber: l.vatNumber,
    headOffice: l.headOffice,
    contactEmail: l.contactEmail,
  };
}

type IssuedRef = { id: string; number: string };

async function existing(tx: Tx, paymentId: string, kind: InvoiceKind): Promise<IssuedRef | null> {
  const [row] = await tx
    .select({ id: invoices.id, number: invoices.number })
    .from(invoices)
    .where(and(eq(invoices.paymentId, paymentId), eq(invoices.kind, kind)))
    .limit(1);
  return row ?? null;
}

/**
 * The invoice of a paid payment, issued once (a replayed webhook finds it): the buyer's identity
 * is copied from the billing details the member gave, else from the profile.
 */
export async function issueInvoiceForPayment(tx: Tx, paymentId: string, issuedAt: Date = new Date()): Promise<IssuedRef | null> {
  const found = await existing(tx, paymentId, "invoice");
  if (found) return found;
  const [p] = await tx
    .select({
      status: payments.status,
      amountCents: payments.amountCents,
      currency: payments.currency,
      paidAt: payments.paidAt,
      provider: payments.provider,
      receiptUrl: payments.receiptUrl,
      profileId: profiles.id,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      company: profiles.company,
      fullAddress: profiles.fullAddress,
      email: user.email,
      billingCompany: billingDetails.company,
      billingAddress: billingDetails.address,
      billingSiren: billingDetails.siren,
      evidenceSiren: verificationEvidence.sirenDigits,
    })
    .from(payments)
    .innerJoin(profiles, eq(profiles.id, payments.profileId))
    .innerJoin(user, eq(user.id, profiles.userId))
    .leftJoin(billingDetails, eq(billingDetails.profileId, profiles.id))
    .leftJoin(verificationEvidence, eq(verificationEvidence.profileId, profiles.id))
    .where(eq(payments.id, paymentId))
    .limit(1);
  if (!p || (p.status !== "paid" && p.status !== "refunded")) return null;
  const seller = sellerNow();
  const amounts = invoiceAmounts(p.amountCents, { vatFranchise: getEnv().legal.vatFranchise });
  const number = await allocateInvoiceNumber(tx, "invoice", issuedAt);
  const [row] = await tx
    .insert(invoices)
    .values({
      kind: "invoice",
      number,
      profileId: p.profileId,
      paymentId,
      seller,
      buyerName: `${p.firstName} ${p.lastName}`.trim(),
      buyerCompany: p.billingCompany ?? p.company,
      buyerAddress: p.billingAddress ?? p.fullAddress ?? null,
      buyerEmail: p.email,
      buyerSiren: p.billingSiren ?? p.evidenceSiren?.slice(0, 9) ?? null,
      designation: FOUNDING_PRODUCT_NAME,
      quantity: 1,
      ...amounts,
      currency: p.currency,
      vatFranchise: getEnv().legal.vatFranchise,
      issuedAt,
      settledAt: p.paidAt ?? issuedAt,
      provider: p.provider,
      receiptUrl: p.receiptUrl,
    })
    .returning({ id: invoices.id, number: invoices.number });
  return row!;
}

/**
 * The credit note (« avoir ») of a refunded payment, referencing its invoice (issued first when
 * the payment had none) and copying its buyer, designation and amounts. Issued once.
 */
export async function issueCreditNoteForPayment(tx: Tx, paymentId: string, refundedAt: Date, issuedAt: Date = new Date()): Promise<IssuedRef | null> {
  const found = await existing(tx, paymentId, "credit_note");
  if (found) return found;
  const invoiceRef = await issueInvoiceForPayment(tx, paymentId, issuedAt);
  if (!invoiceRef) return null;
  const [inv] = await tx.select().from(invoices).where(eq(invoices.id, invoiceRef.id)).limit(1);
  if (!inv) return null;
  const number = await allocateInvoiceNumber(tx, "credit_note", issuedAt);
  const [row] = await tx
    .insert(invoices)
    .values({
      kind: "credit_note",
      number,
      profileId: inv.profileId,
      paymentId,
      creditedInvoiceId: inv.id,
      seller: sellerNow(),
      buyerName: inv.buyerName,
      buyerCompany: inv.buyerCompany,
      buyerAddress: inv.buyerAddress,
      buyerEmail: inv.buyerEmail,
      buyerSiren: inv.buyerSiren,
      designation: inv.designation,
      quantity: inv.quantity,
      unitHtCents: inv.unitHtCents,
      htCents: inv.htCents,
      vatRateBp: inv.vatRateBp,
      vatCents: inv.vatCents,
      ttcCents: inv.ttcCents,
      currency: inv.currency,
      vatFranchise: inv.vatFranchise,
      issuedAt,
      settledAt: refundedAt,
      provider: inv.provider,
      receiptUrl: inv.receiptUrl,
    })
    .returning({ id: invoices.id, number: invoices.number });
  return row!;
}
