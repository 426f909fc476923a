// Charge events of the payment provider: the receipt of a payment, and its refund
// under the money-back guarantee (made by the operator from the Stripe dashboard), which sets the
// payment refunded and issues the credit note in the webhook's transaction.
import { and, eq, or } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "~/db/client.server";
import { payments, invoices } from "~/db/schema";
import { issueCreditNoteForPayment } from "~/features/billing/invoices.server";
import { logger } from "~/lib/logger.server";
import type { PaymentProvider, WebhookEvent } from "./payment-provider.server";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export const CHARGE_EVENTS = new Set(["charge.succeeded", "charge.refunded"]);

const idOrObject = z.union([z.string().min(1), z.object({ id: z.string().min(1) }).transform((o) => o.id)]);

const chargeSchema = z.object({
  id: z.string().min(1),
  payment_intent: idOrObject.nullish(),
  // Shown as a link to the member: only an https address is kept.
  receipt_url: z.string().nullish().transform((v) => (v && /^https:\/\/[^\s"'<>]+$/.test(v) ? v : null)),
  amount: z.number().int().nullish(),
  amount_refunded: z.number().int().nullish(),
  refunded: z.boolean().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
});
export type Charge = z.infer<typeof chargeSchema>;

export function parseCharge(object: Record<string, unknown>): Charge | null {
  const parsed = chargeSchema.safeParse(object);
  return parsed.success ? parsed.data : null;
}

/** What is kept of a charge event: references and amounts, no card or customer details. */
export function storedChargePayload(event: WebhookEvent, charge: Charge): Record<string, unknown> {
  return {
    id: event.id,
    type: event.type,
    created: event.created,
    data: {
      object: {
        id: charge.id,
        payment_intent: charge.payment_intent ?? null,
        amount: charge.amount ?? null,
        amount_refunded: charge.amount_refunded ?? null,
        refunded: charge.refunded ?? null,
      },
    },
  };
}

const uuidSchema = z.uuid();

/** Applies a charge event inside the webhook's transaction (the event row is already written). */
export async function applyChargeEvent(tx: Tx, provider: PaymentProvider["name"], event: WebhookEvent, charge: Charge): Promise<void> {
  const reference = charge.metadata?.paymentId;
  const byReference = reference && uuidSchema.safeParse(reference).success ? eq(payments.id, reference) : undefined;
  const byIntent = charge.payment_intent ? eq(payments.paymentIntentId, charge.payment_intent) : undefined;
  if (!byReference && !byIntent) {
    logger.warn({ eventId: event.id }, "charge event without a payment reference");
    return;
  }
  const [payment] = await tx
    .select({ id: payments.id, status: payments.status, amountCents: payments.amountCents, receiptUrl: payments.receiptUrl })
    .from(payments)
    .where(and(eq(payments.provider, provider), byReference && byIntent ? or(byReference, byIntent) : (byReference ?? byIntent)))
    .for("update");
  if (!payment) {
    logger.warn({ eventId: event.id, type: event.type }, "charge event for an unknown payment");
    return;
  }
  if (charge.receipt_url && charge.receipt_url !== payment.receiptUrl) {
    await tx.update(payments).set({ receiptUrl: charge.receipt_url, updatedAt: new Date() }).where(eq(payments.id, payment.id));
    await tx.update(invoices).set({ receiptUrl: charge.receipt_url }).where(eq(invoices.paymentId, payment.id));
  }
  if (event.type !== "charge.refunded") return;
  const full = charge.refunded === true || (charge.amount_refunded != null && charge.amount_refunded >= payment.amountCents);
  if (!full) {
    // A partial refund is not an offer of the product: the operator issues that credit note by hand.
    logger.warn({ eventId: event.id, paymentId: payment.id, refunded: charge.amount_refunded }, "partial refund: no credit note issued");
    return;
  }
  if (payment.status !== "paid" && payment.status !== "refunded") {
    logger.warn({ eventId: event.id, paymentId: payment.id, status: payment.status }, "refund of a payment not recorded as paid");
    return;
  }
  const refundedAt = event.created ? new Date(event.created * 1000) : new Date();
  if (payment.status === "paid") {
    await tx.update(payments).set({ status: "refunded", updatedAt: new Date() }).where(eq(payments.id, payment.id));
  }
  const note = await issueCreditNoteForPayment(tx, payment.id, refundedAt);
  logger.info({ eventId: event.id, paymentId: payment.id, creditNote: note?.number }, "payment refunded");
}
