// The member's billing (/parametres/facturation): plan and renewal date, payments
// with their invoices and credit notes, the billing details, and each document as a PDF. Every
// function is scoped by the acting member's profile; another member's invoice is a 404.
import { and, desc, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { db } from "~/db/client.server";
import { billingDetails, invoices, payments, profiles, verificationEvidence } from "~/db/schema";
import { renderTextPdf } from "~/lib/pdf/text-pdf.server";
import { PLAN_NAMES, planOf, type PlanId } from "~/features/membership/offers";
import { BILLING_MESSAGES, type BillingDetailsInput } from "./billing.schema";
import { invoiceBlocks, invoiceFileName, membershipEndsOn, type InvoiceDocument, type InvoiceKind } from "./invoice-rules";
import { AppError } from "~/lib/errors/app-error";

export type BillingActor = { profileId: string };

export type BillingDocumentRow = { id: string; kind: InvoiceKind; number: string; issuedAt: string; ttcCents: number };

export type BillingPaymentRow = {
  id: string;
  status: "paid" | "refunded";
  amountCents: number;
  paidAt: string | null;
  receiptUrl: string | null;
  documents: BillingDocumentRow[];
};

export type BillingView = {
  plan: { id: PlanId; name: string };
  /** End of the year the last payment covers ('YYYY-MM-DD'), null without a payment. */
  renewalOn: string | null;
  payments: BillingPaymentRow[];
  /** Prefilled from the profile until the member saves them. */
  details: { company: string; address: string; siren: string; saved: boolean };
  addressMissing: boolean;
};

const notFound = (): never => {
  throw new AppError("not-found", BILLING_MESSAGES.notFound);
};

export async function getBillingView(actor: BillingActor): Promise<BillingView> {
  const [profile] = await db
    .select({
      membershipType: profiles.membershipType,
      company: profiles.company,
      fullAddress: profiles.fullAddress,
      billingCompany: billingDetails.company,
      billingAddress: billingDetails.address,
      billingSiren: billingDetails.siren,
      evidenceSiren: verificationEvidence.sirenDigits,
    })
    .from(profiles)
    .leftJoin(billingDetails, eq(billingDetails.profileId, profiles.id))
    .leftJoin(verificationEvidence, eq(verificationEvidence.profileId, profiles.id))
    .where(eq(profiles.id, actor.profileId))
    .limit(1);
  if (!profile) notFound();
  const [paymentRows, documentRows] = await Promise.all([
    db
      .select({ id: payments.id, status: payments.status, amountCents: payments.amountCents, paidAt: payments.paidAt, receiptUrl: payments.receiptUrl })
      .from(payments)
      .where(eq(payments.profileId, actor.profileId))
      .orderBy(desc(payments.createdAt))
      .limit(50),
    db
      .select({ id: invoices.id, kind: invoices.kind, number: invoices.number, issuedAt: invoices.issuedAt, ttcCents: invoices.ttcCents, paymentId: invoices.paymentId })
      .from(invoices)
      .where(eq(invoices.profileId, actor.profileId))
      .orderBy(invoices.issuedAt, invoices.number)
      .limit(200),
  ]);
  const settled = paymentRows.filter((p): p is typeof p & { status: "paid" | "refunded" } => p.status === "paid" || p.status === "refunded");
  const lastPaid = settled.find((p) => p.status === "paid" && p.paidAt);
  const plan = planOf(profile!.membershipType);
  const address = profile!.billingAddress ?? profile!.fullAddress ?? "";
  return {
    plan: { id: plan, name: PLAN_NAMES[plan] },
    renewalOn: lastPaid?.paidAt ? membershipEndsOn(lastPaid.paidAt) : null,
    payments: settled.map((p) => ({
      id: p.id,
      status: p.status,
      amountCents: p.amountCents,
      paidAt: p.paidAt?.toISOString() ?? null,
      receiptUrl: p.receiptUrl,
      documents: documentRows
        .filter((d) => d.paymentId === p.id)
        .map((d) => ({ id: d.id, kind: d.kind, number: d.number, issuedAt: d.issuedAt.toISOString(), ttcCents: d.ttcCents })),
    })),
    details: {
      company: profile!.billingCompany ?? profile!.company,
      address,
      siren: profile!.billingSiren ?? profile!.evidenceSiren?.slice(0, 9) ?? "",
      saved: profile!.billingCompany !== null,
    },
    addressMissing: address.trim() === "",
  };
}

/**
 * Saves the billing details for the next invoices. An invoice already issued keeps its buyer,
 * except a missing address, which this completes (a missing mention, not a change of the sale).
 */
export async function saveBillingDetails(actor: BillingActor, input: Omit<BillingDetailsInput, "intent">): Promise<void> {
  await db.transaction(async (tx) => {
    const values = { company: input.company, address: input.address, siren: input.siren, updatedAt: new Date() };
    await tx
      .insert(billingDetails)
      .values({ profileId: actor.profileId, ...values })
      .onConflictDoUpdate({ target: billingDetails.profileId, set: values });
    await tx
      .update(invoices)
      .set({ buyerAddress: input.address })
      .where(and(eq(invoices.profileId, actor.profileId), isNull(invoices.buyerAddress)));
  });
}

const idSchema = z.uuid();

/** The PDF of one of the actor's invoices or credit notes; 404 for anything else. */
export async function renderInvoicePdf(actor: BillingActor, invoiceId: string): Promise<{ bytes: Uint8Array; fileName: string }> {
  if (!idSchema.safeParse(invoiceId).success) notFound();
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, invoiceId), eq(invoices.profileId, actor.profileId)))
    .limit(1);
  if (!row) notFound();
  const inv = row!;
  let creditedNumber: string | null = null;
  if (inv.creditedInvoiceId) {
    const [credited] = await db.select({ number: invoices.number }).from(invoices).where(eq(invoices.id, inv.creditedInvoiceId)).limit(1);
    creditedNumber = credited?.number ?? null;
  }
  const doc: InvoiceDocument = {
    kind: inv.kind,
    number: inv.number,
    creditedNumber,
    seller: inv.seller,
    buyer: { name: inv.buyerName, company: inv.buyerCompany, address: inv.buyerAddress, email: inv.buyerEmail, siren: inv.buyerSiren },
    designation: inv.designation,
    quantity: inv.quantity,
    unitHtCents: inv.unitHtCents,
    htCents: inv.htCents,
    vatRateBp: inv.vatRateBp,
    vatCents: inv.vatCents,
    ttcCents: inv.ttcCents,
    vatFranchise: inv.vatFranchise,
    issuedAt: inv.issuedAt,
    settledAt: inv.settledAt,
    receiptUrl: inv.receiptUrl,
    professionalBuyer: true,
  };
  const title = `${inv.kind === "credit_note" ? "Avoir" : "Facture"} ${inv.number}`;
  const bytes = await renderTextPdf(invoiceBlocks(doc), { title, footer: `${title} — ${inv.seller.companyName}`, createdAt: inv.issuedAt });
  return { bytes, fileName: invoiceFileName(inv.kind, inv.number) };
}
