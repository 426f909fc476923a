// Founding-member payments (spec §1, §4, §7 create-checkout, §8). The checkout is started by
// the member; the payment is only trusted when the provider's signed webhook says so. Each
// webhook event is applied once, in one transaction with its effect.
import { randomBytes, randomUUID } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { getProfileByUserId, type Profile, type SessionUser } from "~/auth/session.server";
import { db, type Db } from "~/db/client.server";
import { paymentEvents, payments, profiles } from "~/db/schema";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { consumeRateLimit } from "~/lib/rate-limit.server";
import { getOwnProfileForPayment, getRemainingPlaces } from "../onboarding/onboarding.server";
import { PAYMENT_MESSAGES } from "./payment-messages";
import { getPaymentProvider, signLocalWebhook, type PaymentProvider, type WebhookEvent } from "./payment-provider.server";
import { issueInvoiceForPayment } from "../billing/invoices.server";
import { applyChargeEvent, CHARGE_EVENTS, parseCharge, storedChargePayload } from "./refunds.server";
import { FOUNDING_PRICE_CENTS, PAYMENT_CURRENCY } from "./offers";
import { invalidate } from "~/lib/cache.server";
import { AppError } from "~/lib/errors/app-error";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Executor = Db | Tx;
type Payment = typeof payments.$inferSelect;

export type PaymentErrorCode = "no-url" | "failed";

/** A checkout that could not be opened; `message` is the spec's French text. */
export class PaymentError extends Error {
  readonly code: PaymentErrorCode;
  constructor(code: PaymentErrorCode, options?: { cause?: unknown }) {
    super(code === "no-url" ? PAYMENT_MESSAGES.noUrl : PAYMENT_MESSAGES.failed, options);
    this.name = "PaymentError";
    this.code = code;
  }
}

/** Where the member comes back after the checkout: the onboarding or the premium page. */
export type CheckoutOrigin = "onboarding" | "premium";

export function checkoutReturnPaths(origin: CheckoutOrigin): { successPath: string; cancelPath: string } {
  const base = origin === "premium" ? "/premium" : "/onboarding";
  return { successPath: `${base}?payment=success`, cancelPath: `${base}?payment=canceled` };
}

function originOf(profile: Pick<Profile, "profileStatus">): CheckoutOrigin {
  return profile.profileStatus === "validated" ? "premium" : "onboarding";
}

function conflict(message: string): never {
  throw new AppError("conflict", message);
}

function notFound(): never {
  throw new AppError("not-found", "Paiement introuvable");
}

// Each click opens a provider session: cap them per account.
const CHECKOUT_RATE_LIMIT = { limit: 10, windowSeconds: 60 * 60 };

/**
 * Opens the founding-member checkout (FOUNDING_PRICE_CENTS, TTC) for:
 * - an applicant at the onboarding payment step (back to /onboarding), or
 * - a validated freemium member upgrading from /premium (back to /premium).
 * Anyone else gets a 409. Throws PaymentError when the provider fails.
 */
export async function startFoundingCheckout(user: SessionUser): Promise<{ url: string }> {
  let profile = await getProfileByUserId(user.id);
  let origin: CheckoutOrigin;
  if (profile?.profileStatus === "validated") {
    if (profile.membershipType !== "freemium") {
      conflict(profile.membershipType === "founding_member" ? "Vous bénéficiez déjà de l’offre membre fondateur." : "Votre plan Premium inclut déjà toutes les fonctionnalités.");
    }
    origin = "premium";
  } else {
    profile = await getOwnProfileForPayment(user);
    origin = "onboarding";
  }
  if (await hasPaidFoundingMembership(profile.id)) conflict("Votre paiement a déjà été enregistré.");

  const limit = await consumeRateLimit(`checkout:${user.id}`, CHECKOUT_RATE_LIMIT);
  if (!limit.allowed) {
    throw new AppError("rate-limited", "Trop de tentatives de paiement. Veuillez réessayer plus tard.", { retryAfterSeconds: limit.retryAfter });
  }

  const provider = getPaymentProvider();
  const appUrl = getEnv().APP_URL;
  const { successPath, cancelPath } = checkoutReturnPaths(origin);
  const paymentId = randomUUID();
  // A new attempt supersedes the abandoned ones (a late payment of one still counts: see the webhook).
  await db
    .update(payments)
    .set({ status: "canceled", updatedAt: new Date() })
    .where(and(eq(payments.profileId, profile.id), eq(payments.status, "pending")));
  await db.insert(payments).values({
    id: paymentId,
    profileId: profile.id,
    provider: provider.name,
    // Replaced by the provider's session id as soon as it is known (the column is required).
    checkoutSessionId: `pending_${paymentId}`,
    status: "pending",
    amountCents: FOUNDING_PRICE_CENTS,
    currency: PAYMENT_CURRENCY,
  });

  let session: { sessionId: string; url: string | null };
  try {
    session = await provider.createCheckout({
      paymentId,
      profileId: profile.id,
      customerEmail: user.email,
      amountCents: FOUNDING_PRICE_CENTS,
      successUrl: `${appUrl}${successPath}`,
      cancelUrl: `${appUrl}${cancelPath}`,
    });
    await db
      .update(payments)
      .set({ checkoutSessionId: session.sessionId, updatedAt: new Date() })
      .where(eq(payments.id, paymentId));
  } catch (error) {
    logger.error({ err: error, paymentId, provider: provider.name }, "checkout creation failed");
    await db
      .update(payments)
      .set({ status: "canceled", updatedAt: new Date() })
      .where(and(eq(payments.id, paymentId), eq(payments.status, "pending")))
      .catch((e: unknown) => logger.error({ err: e, paymentId }, "could not cancel the failed payment"));
    throw new PaymentError("failed", { cause: error });
  }
  if (!session.url) {
    logger.error({ paymentId, provider: provider.name, sessionId: session.sessionId }, "checkout created without a URL");
    throw new PaymentError("no-url");
  }
  logger.info({ paymentId, provider: provider.name, origin }, "checkout started");
  return { url: session.url };
}

// --- Webhook -------------------------------------------------------------------------------

const checkoutSessionSchema = z.object({
  id: z.string().min(1),
  payment_status: z.string().nullish(),
  client_reference_id: z.string().nullish(),
  amount_total: z.number().int().nullish(),
  currency: z.string().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  // An id, or the object when the event was expanded; a refund event names it.
  payment_intent: z.union([z.string().min(1), z.object({ id: z.string().min(1) }).transform((o) => o.id)]).nullish(),
});
type CheckoutSession = z.infer<typeof checkoutSessionSchema>;

const PAID_EVENTS = new Set(["checkout.session.completed", "checkout.session.async_payment_succeeded"]);
const FAILED_EVENTS = new Set(["checkout.session.expired", "checkout.session.async_payment_failed"]);

const uuidSchema = z.uuid();

/** The payment a session belongs to: by our reference (client_reference_id), else by session id. */
async function lockPaymentForSession(tx: Tx, provider: PaymentProvider["name"], session: CheckoutSession): Promise<Payment | null> {
  const reference = session.client_reference_id ?? session.metadata?.paymentId ?? null;
  if (reference && uuidSchema.safeParse(reference).success) {
    const [row] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.id, reference), eq(payments.provider, provider)))
      .for("update");
    // A reference naming a payment opened under another session is not trusted.
    if (row && (row.checkoutSessionId === session.id || row.checkoutSessionId === `pending_${row.id}`)) return row;
    if (row) return null;
  }
  const [row] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.provider, provider), eq(payments.checkoutSessionId, session.id)))
    .for("update");
  return row ?? null;
}

/** Onboarding moves on; an already validated member (upgrade from /premium) is founding at once. */
async function applyPaidToProfile(tx: Tx, profileId: string) {
  const [profile] = await tx
    .select({ id: profiles.id, profileStatus: profiles.profileStatus, onboardingStatus: profiles.onboardingStatus, membershipType: profiles.membershipType })
    .from(profiles)
    .where(eq(profiles.id, profileId))
    .for("update");
  if (!profile) return;
  if (profile.profileStatus === "validated") {
    if (profile.membershipType !== "founding_member") {
      invalidate("profiles");
      await tx.update(profiles).set({ membershipType: "founding_member", updatedAt: new Date() }).where(eq(profiles.id, profileId));
    }
    return;
  }
  // Membership stays freemium until the team validates the profile (applyFoundingMembershipOnValidation).
  if (profile.onboardingStatus === "recommendations_pending") {
    invalidate("profiles");
    await tx.update(profiles).set({ onboardingStatus: "payment_completed", updatedAt: new Date() }).where(eq(profiles.id, profileId));
  }
}

/** What is kept of an event: no customer details, only what explains the payment's state. */
function storedPayload(event: WebhookEvent, session: CheckoutSession): Record<string, unknown> {
  return {
    id: event.id,
    type: event.type,
    created: event.created,
    data: {
      object: {
        id: session.id,
        payment_status: session.payment_status ?? null,
        client_reference_id: session.client_reference_id ?? null,
        amount_total: session.amount_total ?? null,
        currency: session.currency ?? null,
        metadata: session.metadata ?? null,
        payment_intent: session.payment_intent ?? null,
      },
    },
  };
}

/**
 * Applies a provider webhook. 400 (nothing written) on a missing or bad signature; 200 for a
 * replay, an unknown event type or a session that is not ours. Database failures throw, so the
 * provider retries. Out-of-order events end in the same state: a paid payment is never un-paid.
 */
export async function handlePaymentWebhook(rawBody: string, signature: string | null): Promise<{ status: 200 | 400 }> {
  const provider = getPaymentProvider();
  let event: WebhookEvent;
  try {
    event = provider.verifyWebhook(rawBody, signature);
  } catch (error) {
    logger.warn({ err: error, provider: provider.name }, "payment webhook refused");
    return { status: 400 };
  }
  if (CHARGE_EVENTS.has(event.type)) return handleChargeWebhook(provider.name, event);
  const paid = PAID_EVENTS.has(event.type);
  if (!paid && !FAILED_EVENTS.has(event.type)) {
    logger.info({ eventId: event.id, type: event.type }, "payment webhook ignored (event type not handled)");
    return { status: 200 };
  }
  const parsed = checkoutSessionSchema.safeParse(event.data.object);
  if (!parsed.success) {
    logger.warn({ eventId: event.id, type: event.type }, "payment webhook ignored (not a checkout session)");
    return { status: 200 };
  }
  const session = parsed.data;

  await db.transaction(async (tx) => {
    const fresh = await tx
      .insert(paymentEvents)
      .values({ id: event.id, provider: provider.name, type: event.type, payload: storedPayload(event, session) })
      .onConflictDoNothing()
      .returning({ id: paymentEvents.id });
    if (fresh.length === 0) {
      logger.info({ eventId: event.id }, "payment webhook replayed: already processed");
      return;
    }
    const payment = await lockPaymentForSession(tx, provider.name, session);
    if (!payment) {
      logger.warn({ eventId: event.id, sessionId: session.id }, "payment webhook for an unknown checkout session");
      return;
    }
    if (paid) {
      if (session.payment_status !== "paid") {
        // Asynchronous methods complete first as "unpaid"; async_payment_succeeded follows.
        logger.info({ eventId: event.id, paymentId: payment.id }, "checkout completed without payment yet");
        return;
      }
      if (session.amount_total != null && session.amount_total !== payment.amountCents) {
        logger.error({ eventId: event.id, paymentId: payment.id, amount: session.amount_total }, "paid amount differs from the expected amount");
        return;
      }
      if (payment.status === "pending" || payment.status === "canceled") {
        await tx
          .update(payments)
          .set({ status: "paid", paidAt: new Date(), checkoutSessionId: session.id, paymentIntentId: session.payment_intent ?? null, updatedAt: new Date() })
          .where(eq(payments.id, payment.id));
      }
      if (payment.status !== "refunded") {
        await applyPaidToProfile(tx, payment.profileId);
        // In the same transaction: a payment that rolls back never takes an invoice number.
        await issueInvoiceForPayment(tx, payment.id);
      }
      logger.info({ eventId: event.id, paymentId: payment.id }, "payment recorded as paid");
      return;
    }
    if (payment.status === "pending") {
      await tx
        .update(payments)
        .set({ status: "canceled", checkoutSessionId: session.id, updatedAt: new Date() })
        .where(eq(payments.id, payment.id));
      logger.info({ eventId: event.id, paymentId: payment.id, type: event.type }, "payment canceled");
    }
  });
  return { status: 200 };
}

/** A charge event (receipt, refund): recorded once, applied in the same transaction. */
async function handleChargeWebhook(provider: PaymentProvider["name"], event: WebhookEvent): Promise<{ status: 200 }> {
  const charge = parseCharge(event.data.object);
  if (!charge) {
    logger.warn({ eventId: event.id, type: event.type }, "payment webhook ignored (not a charge)");
    return { status: 200 };
  }
  await db.transaction(async (tx) => {
    const fresh = await tx
      .insert(paymentEvents)
      .values({ id: event.id, provider, type: event.type, payload: storedChargePayload(event, charge) })
      .onConflictDoNothing()
      .returning({ id: paymentEvents.id });
    if (fresh.length === 0) return;
    await applyChargeEvent(tx, provider, event, charge);
  });
  return { status: 200 };
}

// --- Membership ----------------------------------------------------------------------------

export async function hasPaidFoundingMembership(profileId: string, tx: Executor = db): Promise<boolean> {
  const rows = await tx
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.profileId, profileId), eq(payments.status, "paid")))
    .limit(1);
  return rows.length > 0;
}

/**
 * To be called by the admin validation, in its transaction, after the profile is set to
 * validated: a paid founding membership becomes effective. Returns whether it applied.
 */
export async function applyFoundingMembershipOnValidation(profileId: string, tx: Executor): Promise<boolean> {
  if (!(await hasPaidFoundingMembership(profileId, tx))) return false;
  invalidate("profiles");
  await tx.update(profiles).set({ membershipType: "founding_member", updatedAt: new Date() }).where(eq(profiles.id, profileId));
  return true;
}

export type PaymentState = { status: "none" | "pending" | "paid" | "canceled"; paidAt: string | null };

/** For display: paid if any payment is paid, else the latest attempt's state. */
export async function getPaymentState(profileId: string): Promise<PaymentState> {
  const rows = await db
    .select({ status: payments.status, paidAt: payments.paidAt })
    .from(payments)
    .where(eq(payments.profileId, profileId))
    .orderBy(desc(payments.createdAt))
    .limit(50);
  const paidRow = rows.find((r) => r.status === "paid");
  if (paidRow) return { status: "paid", paidAt: paidRow.paidAt?.toISOString() ?? null };
  const latest = rows[0];
  if (!latest) return { status: "none", paidAt: null };
  return { status: latest.status === "pending" ? "pending" : "canceled", paidAt: null };
}

/**
 * Remaining founding places for display (spec §9, computed by the onboarding feature), or null
 * when the count cannot be read: pages then omit the figure rather than show an invented one.
 */
export async function getFoundingPlacesLeft(): Promise<number | null> {
  try {
    return await getRemainingPlaces();
  } catch (error) {
    logger.error({ err: error }, "remaining founding places unavailable");
    return null;
  }
}

// --- Local test checkout (no Stripe configured) --------------------------------------------

export type LocalCheckout = {
  sessionId: string;
  amountCents: number;
  successPath: string;
  cancelPath: string;
};

/** The caller's own pending local checkout; 404 otherwise, and always when Stripe is configured. */
export async function getLocalCheckout(user: SessionUser, sessionId: string): Promise<LocalCheckout & { paymentId: string; profileId: string }> {
  if (getPaymentProvider().name !== "local") notFound();
  if (!/^local_[0-9a-f]{32}$/.test(sessionId)) notFound();
  const [row] = await db
    .select({ id: payments.id, profileId: payments.profileId, amountCents: payments.amountCents, profileStatus: profiles.profileStatus })
    .from(payments)
    .innerJoin(profiles, eq(profiles.id, payments.profileId))
    .where(
      and(
        eq(payments.provider, "local"),
        eq(payments.checkoutSessionId, sessionId),
        eq(payments.status, "pending"),
        eq(profiles.userId, user.id),
      ),
    )
    .limit(1);
  if (!row) notFound();
  return { sessionId, paymentId: row.id, profileId: row.profileId, amountCents: row.amountCents, ...checkoutReturnPaths(originOf(row)) };
}

/**
 * Pays or cancels a local test checkout by posting a signed provider-shaped event to the same
 * webhook handler as Stripe's. Returns the path to go back to.
 */
export async function completeLocalCheckout(user: SessionUser, sessionId: string, outcome: "pay" | "cancel"): Promise<string> {
  const checkout = await getLocalCheckout(user, sessionId);
  const event = {
    id: `evt_local_${randomBytes(12).toString("hex")}`,
    object: "event",
    type: outcome === "pay" ? "checkout.session.completed" : "checkout.session.expired",
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: {
      object: {
        id: checkout.sessionId,
        object: "checkout.session",
        mode: "payment",
        status: outcome === "pay" ? "complete" : "expired",
        payment_status: outcome === "pay" ? "paid" : "unpaid",
        client_reference_id: checkout.paymentId,
        amount_total: checkout.amountCents,
        currency: PAYMENT_CURRENCY,
        metadata: { paymentId: checkout.paymentId, profileId: checkout.profileId },
      },
    },
  };
  const payload = JSON.stringify(event);
  const result = await handlePaymentWebhook(payload, signLocalWebhook(payload));
  if (result.status !== 200) throw new Error(`local webhook refused (${result.status})`);
  return outcome === "pay" ? checkout.successPath : checkout.cancelPath;
}
