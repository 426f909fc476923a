import { count, eq, inArray } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { SessionUser } from "~/auth/session.server";
import { db } from "~/db/client.server";
import { paymentEvents, payments, profiles } from "~/db/schema";
import {
  applyFoundingMembershipOnValidation,
  completeLocalCheckout,
  getLocalCheckout,
  getPaymentState,
  handlePaymentWebhook,
  hasPaidFoundingMembership,
  PaymentError,
  startFoundingCheckout,
} from "~/features/membership/membership.server";
import {
  createStripeProvider,
  getPaymentProvider,
  localWebhookSecret,
  overridePaymentProvider,
  signLocalWebhook,
  WebhookSignatureError,
  type PaymentProvider,
} from "~/features/membership/payment-provider.server";
import { getEnv, parseEnv, setEnv } from "~/lib/env.server";
import { action as webhookAction } from "~/routes/api/stripe-webhook";
import { createApplicant, createMember, type CreatedMember } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { expectedStatus } from "~/lib/errors/http";

useTestDatabase();

const original = getEnv();
const secret = "s".repeat(48);
const localEnv = parseEnv({ ...process.env, BETTER_AUTH_SECRET: secret, STRIPE_SECRET_KEY: "", STRIPE_WEBHOOK_SECRET: "", APP_URL: "http://localhost:3000" });
const STRIPE_WHSEC = "whsec_test_fake_secret_for_offline_tests";
const stripeEnv = parseEnv({ ...process.env, BETTER_AUTH_SECRET: secret, STRIPE_SECRET_KEY: "sk_test_fake", STRIPE_WEBHOOK_SECRET: STRIPE_WHSEC, APP_URL: "http://localhost:3000" });

beforeAll(() => setEnv(localEnv));
afterEach(() => {
  setEnv(localEnv);
  overridePaymentProvider(undefined);
});
afterAll(() => setEnv(original));

const sessionUser = (m: CreatedMember): SessionUser => ({ id: m.user.id, email: m.email, emailVerified: true, twoFactorEnabled: false });

/** An applicant at the onboarding payment step. */
function createPayingApplicant() {
  return createMember(db, {
    profile: { profileStatus: "pending_validation", onboardingStatus: "recommendations_pending", membershipType: "freemium", validatedAt: null },
  });
}

async function statusOf(promise: Promise<unknown>): Promise<number | undefined> {
  const thrown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return expectedStatus(thrown) ?? undefined;
}

function sessionIdOf(url: string) {
  return url.split("/").pop()!;
}

async function paymentOf(profileId: string) {
  const rows = await db.select().from(payments).where(eq(payments.profileId, profileId));
  expect(rows).toHaveLength(1);
  return rows[0];
}

async function profileOf(profileId: string) {
  const [row] = await db.select().from(profiles).where(eq(profiles.id, profileId));
  return row;
}

let eventCounter = 0;
function checkoutEvent(
  type: string,
  payment: { id: string; profileId: string; checkoutSessionId: string },
  overrides: { id?: string; paymentStatus?: string; amount?: number } = {},
) {
  eventCounter += 1;
  return JSON.stringify({
    id: overrides.id ?? `evt_test_${Date.now()}_${eventCounter}`,
    object: "event",
    type,
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: payment.checkoutSessionId,
        object: "checkout.session",
        payment_status: overrides.paymentStatus ?? (type === "checkout.session.completed" ? "paid" : "unpaid"),
        client_reference_id: payment.id,
        amount_total: overrides.amount ?? 25_000,
        currency: "eur",
        metadata: { paymentId: payment.id, profileId: payment.profileId },
      },
    },
  });
}

async function sendLocal(payload: string) {
  return handlePaymentWebhook(payload, signLocalWebhook(payload));
}

async function eventCount() {
  const [row] = await db.select({ n: count() }).from(paymentEvents);
  return Number(row.n);
}

describe("founding checkout (local provider)", () => {
  it("creates a pending payment of 250 € and a local checkout URL", async () => {
    const applicant = await createPayingApplicant();
    const { url } = await startFoundingCheckout(sessionUser(applicant));
    expect(url).toMatch(/^http:\/\/localhost:3000\/paiement-test\/local_[0-9a-f]{32}$/);
    const payment = await paymentOf(applicant.profile.id);
    expect(payment).toMatchObject({
      provider: "local",
      status: "pending",
      amountCents: 25_000,
      currency: "eur",
      checkoutSessionId: sessionIdOf(url),
      paidAt: null,
    });
    expect(await getPaymentState(applicant.profile.id)).toEqual({ status: "pending", paidAt: null });
    const checkout = await getLocalCheckout(sessionUser(applicant), sessionIdOf(url));
    expect(checkout).toMatchObject({ amountCents: 25_000, successPath: "/onboarding?payment=success", cancelPath: "/onboarding?payment=canceled" });
  });

  it("is refused (409) to anyone but an applicant at the payment step or a validated freemium member", async () => {
    const waiting = await createApplicant(db); // payment_completed
    const premium = await createMember(db, { profile: { membershipType: "premium" } });
    const founder = await createMember(db, { profile: { membershipType: "founding_member" } });
    const early = await createMember(db, { profile: { profileStatus: "pending_validation", onboardingStatus: "profile_completed", validatedAt: null } });
    for (const m of [waiting, premium, founder, early]) {
      expect(await statusOf(startFoundingCheckout(sessionUser(m)))).toBe(409);
    }
    const rows = await db
      .select({ id: payments.id })
      .from(payments)
      .where(inArray(payments.profileId, [waiting, premium, founder, early].map((m) => m.profile.id)));
    expect(rows).toHaveLength(0);
  });

  it("only the owner of a pending local checkout can open it", async () => {
    const applicant = await createPayingApplicant();
    const other = await createPayingApplicant();
    const { url } = await startFoundingCheckout(sessionUser(applicant));
    expect(await statusOf(getLocalCheckout(sessionUser(other), sessionIdOf(url)))).toBe(404);
    expect(await statusOf(completeLocalCheckout(sessionUser(other), sessionIdOf(url), "pay"))).toBe(404);
    expect(await statusOf(getLocalCheckout(sessionUser(applicant), "local_nope"))).toBe(404);
    expect((await paymentOf(applicant.profile.id)).status).toBe("pending");
  });

  it("a new attempt supersedes an abandoned one, which can no longer be opened", async () => {
    const applicant = await createPayingApplicant();
    const user = sessionUser(applicant);
    const first = await startFoundingCheckout(user);
    const second = await startFoundingCheckout(user);
    expect(await statusOf(getLocalCheckout(user, sessionIdOf(first.url)))).toBe(404);
    expect((await getLocalCheckout(user, sessionIdOf(second.url))).sessionId).toBe(sessionIdOf(second.url));
    const rows = await db.select().from(payments).where(eq(payments.profileId, applicant.profile.id));
    expect(rows.map((r) => [r.checkoutSessionId, r.status]).sort()).toEqual(
      [
        [sessionIdOf(first.url), "canceled"],
        [sessionIdOf(second.url), "pending"],
      ].sort(),
    );
    // A late payment of the abandoned session still counts.
    const abandoned = rows.find((r) => r.checkoutSessionId === sessionIdOf(first.url))!;
    expect((await sendLocal(checkoutEvent("checkout.session.completed", abandoned))).status).toBe(200);
    expect((await getPaymentState(applicant.profile.id)).status).toBe("paid");
  });
});

describe("payment webhook", () => {
  it("a forged or missing signature is a 400 and writes nothing", async () => {
    const before = await eventCount();
    const applicant = await createPayingApplicant();
    await startFoundingCheckout(sessionUser(applicant));
    const payment = await paymentOf(applicant.profile.id);
    const payload = checkoutEvent("checkout.session.completed", payment);
    const forged = Stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_forged" });
    expect(await handlePaymentWebhook(payload, forged)).toEqual({ status: 400 });
    expect(await handlePaymentWebhook(payload, null)).toEqual({ status: 400 });
    expect(await handlePaymentWebhook(payload, "t=1,v1=deadbeef")).toEqual({ status: 400 });
    // A valid signature of another body.
    const tampered = payload.replace('"amount_total":25000', '"amount_total":1');
    expect(await handlePaymentWebhook(tampered, signLocalWebhook(payload))).toEqual({ status: 400 });
    expect(await eventCount()).toBe(before);
    expect((await paymentOf(applicant.profile.id)).status).toBe("pending");
    expect((await profileOf(applicant.profile.id)).onboardingStatus).toBe("recommendations_pending");
  });

  it("the same event delivered 10 times is applied once", async () => {
    const before = await eventCount();
    const applicant = await createPayingApplicant();
    await startFoundingCheckout(sessionUser(applicant));
    const payment = await paymentOf(applicant.profile.id);
    const payload = checkoutEvent("checkout.session.completed", payment, { id: "evt_same_10" });
    const first = await sendLocal(payload);
    expect(first.status).toBe(200);
    const paidAt = (await paymentOf(applicant.profile.id)).paidAt;
    expect(paidAt).toBeInstanceOf(Date);
    const rest = await Promise.all(Array.from({ length: 9 }, () => sendLocal(payload)));
    expect(rest.every((r) => r.status === 200)).toBe(true);
    expect(await eventCount()).toBe(before + 1);
    const after = await paymentOf(applicant.profile.id);
    expect(after.status).toBe("paid");
    expect(after.paidAt?.getTime()).toBe(paidAt?.getTime());
    const profile = await profileOf(applicant.profile.id);
    expect(profile.onboardingStatus).toBe("payment_completed");
    expect(profile.membershipType).toBe("freemium"); // until validation
    expect(await hasPaidFoundingMembership(applicant.profile.id)).toBe(true);
    expect((await getPaymentState(applicant.profile.id)).status).toBe("paid");
  });

  it("out-of-order events end in the same state (paid)", async () => {
    const a = await createPayingApplicant();
    const b = await createPayingApplicant();
    await startFoundingCheckout(sessionUser(a));
    await startFoundingCheckout(sessionUser(b));
    const pa = await paymentOf(a.profile.id);
    const pb = await paymentOf(b.profile.id);
    // a: expired, then completed.
    expect((await sendLocal(checkoutEvent("checkout.session.expired", pa))).status).toBe(200);
    expect((await paymentOf(a.profile.id)).status).toBe("canceled");
    expect((await sendLocal(checkoutEvent("checkout.session.completed", pa))).status).toBe(200);
    // b: completed, then expired, then a failed async payment.
    expect((await sendLocal(checkoutEvent("checkout.session.completed", pb))).status).toBe(200);
    expect((await sendLocal(checkoutEvent("checkout.session.expired", pb))).status).toBe(200);
    expect((await sendLocal(checkoutEvent("checkout.session.async_payment_failed", pb))).status).toBe(200);
    // c: both at once (the payment row is locked: one waits for the other).
    const c = await createPayingApplicant();
    await startFoundingCheckout(sessionUser(c));
    const pc = await paymentOf(c.profile.id);
    const results = await Promise.all([
      sendLocal(checkoutEvent("checkout.session.expired", pc)),
      sendLocal(checkoutEvent("checkout.session.completed", pc)),
      sendLocal(checkoutEvent("checkout.session.expired", pc)),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    for (const m of [a, b, c]) {
      const payment = await paymentOf(m.profile.id);
      expect(payment.status).toBe("paid");
      expect(payment.paidAt).toBeInstanceOf(Date);
      expect((await profileOf(m.profile.id)).onboardingStatus).toBe("payment_completed");
    }
  });

  it("a completed session not yet paid, a wrong amount, an unknown session or type change nothing", async () => {
    const applicant = await createPayingApplicant();
    await startFoundingCheckout(sessionUser(applicant));
    const payment = await paymentOf(applicant.profile.id);
    expect((await sendLocal(checkoutEvent("checkout.session.completed", payment, { paymentStatus: "unpaid" }))).status).toBe(200);
    expect((await sendLocal(checkoutEvent("checkout.session.completed", payment, { amount: 100 }))).status).toBe(200);
    expect(
      (await sendLocal(checkoutEvent("checkout.session.completed", { ...payment, id: crypto.randomUUID(), checkoutSessionId: "local_unknown" }))).status,
    ).toBe(200);
    const before = await eventCount();
    expect((await sendLocal(checkoutEvent("customer.created", payment))).status).toBe(200);
    expect(await eventCount()).toBe(before);
    expect((await paymentOf(applicant.profile.id)).status).toBe("pending");
    expect((await profileOf(applicant.profile.id)).onboardingStatus).toBe("recommendations_pending");
    // The asynchronous success that follows an unpaid completion pays it.
    expect((await sendLocal(checkoutEvent("checkout.session.async_payment_succeeded", payment, { paymentStatus: "paid" }))).status).toBe(200);
    expect((await paymentOf(applicant.profile.id)).status).toBe("paid");
  });

  it("the webhook route reads the raw body and the stripe-signature header", async () => {
    const applicant = await createPayingApplicant();
    await startFoundingCheckout(sessionUser(applicant));
    const payment = await paymentOf(applicant.profile.id);
    const payload = checkoutEvent("checkout.session.completed", payment);
    const call = (signature: string) =>
      webhookAction({
        request: new Request("http://localhost/api/webhooks/stripe", { method: "POST", body: payload, headers: { "stripe-signature": signature } }),
        params: {},
        context: { requestId: "test", nonce: "" },
      } as unknown as Parameters<typeof webhookAction>[0]);
    expect((await call("t=1,v1=00")).status).toBe(400);
    expect((await paymentOf(applicant.profile.id)).status).toBe("pending");
    expect((await call(signLocalWebhook(payload))).status).toBe(200);
    expect((await paymentOf(applicant.profile.id)).status).toBe("paid");
  });
});

describe("local test checkout", () => {
  it("cancel then pay goes through the webhook and returns to the onboarding", async () => {
    const applicant = await createPayingApplicant();
    const user = sessionUser(applicant);
    const first = await startFoundingCheckout(user);
    expect(await completeLocalCheckout(user, sessionIdOf(first.url), "cancel")).toBe("/onboarding?payment=canceled");
    expect((await paymentOf(applicant.profile.id)).status).toBe("canceled");
    expect((await getPaymentState(applicant.profile.id)).status).toBe("canceled");
    // A canceled session cannot be reopened.
    expect(await statusOf(getLocalCheckout(user, sessionIdOf(first.url)))).toBe(404);

    const second = await startFoundingCheckout(user);
    expect(await completeLocalCheckout(user, sessionIdOf(second.url), "pay")).toBe("/onboarding?payment=success");
    const events = await db.select().from(paymentEvents);
    expect(events.some((e) => e.id.startsWith("evt_local_") && e.type === "checkout.session.completed" && e.provider === "local")).toBe(true);
    const profile = await profileOf(applicant.profile.id);
    expect(profile.onboardingStatus).toBe("payment_completed");
    expect(profile.membershipType).toBe("freemium");
    // Paid: no second checkout.
    expect(await statusOf(startFoundingCheckout(user))).toBe(409);
  });

  it("a validated freemium member upgrading from /premium becomes founding member at once", async () => {
    const member = await createMember(db, { profile: { membershipType: "freemium" } });
    const user = sessionUser(member);
    const { url } = await startFoundingCheckout(user);
    const checkout = await getLocalCheckout(user, sessionIdOf(url));
    expect(checkout.successPath).toBe("/premium?payment=success");
    expect(await completeLocalCheckout(user, sessionIdOf(url), "pay")).toBe("/premium?payment=success");
    const profile = await profileOf(member.profile.id);
    expect(profile.membershipType).toBe("founding_member");
    expect(profile.onboardingStatus).toBe("validated");
    expect(await statusOf(startFoundingCheckout(user))).toBe(409);
  });
});

describe("membership on validation", () => {
  it("applyFoundingMembershipOnValidation sets founding_member only when paid", async () => {
    const payer = await createPayingApplicant();
    const freeStarter = await createApplicant(db);
    const { url } = await startFoundingCheckout(sessionUser(payer));
    await completeLocalCheckout(sessionUser(payer), sessionIdOf(url), "pay");

    const validate = (profileId: string) =>
      db.transaction(async (tx) => {
        await tx
          .update(profiles)
          .set({ profileStatus: "validated", onboardingStatus: "validated", validatedAt: new Date() })
          .where(eq(profiles.id, profileId));
        return applyFoundingMembershipOnValidation(profileId, tx);
      });
    expect(await validate(payer.profile.id)).toBe(true);
    expect(await validate(freeStarter.profile.id)).toBe(false);
    expect((await profileOf(payer.profile.id)).membershipType).toBe("founding_member");
    expect((await profileOf(freeStarter.profile.id)).membershipType).toBe("freemium");
    expect(await getPaymentState(freeStarter.profile.id)).toEqual({ status: "none", paidAt: null });
  });
});

describe("provider failures", () => {
  const fake = (createCheckout: PaymentProvider["createCheckout"]): PaymentProvider => ({
    name: "local",
    createCheckout,
    verifyWebhook: () => {
      throw new WebhookSignatureError("unused");
    },
  });

  it("no URL from the provider → PaymentError no-url ('Aucune URL de paiement reçue')", async () => {
    const applicant = await createPayingApplicant();
    overridePaymentProvider(fake(async () => ({ sessionId: "local_nourl", url: null })));
    const error = await startFoundingCheckout(sessionUser(applicant)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentError);
    expect((error as PaymentError).code).toBe("no-url");
    expect((error as PaymentError).message).toBe("Aucune URL de paiement reçue");
    expect(await paymentOf(applicant.profile.id)).toMatchObject({ status: "pending", checkoutSessionId: "local_nourl" });
  });

  it("a provider error → PaymentError failed ('Une erreur est survenue lors du paiement'), payment canceled", async () => {
    const applicant = await createPayingApplicant();
    overridePaymentProvider(fake(async () => Promise.reject(new Error("network down"))));
    const error = await startFoundingCheckout(sessionUser(applicant)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentError);
    expect((error as PaymentError).code).toBe("failed");
    expect((error as PaymentError).message).toBe("Une erreur est survenue lors du paiement");
    expect((await paymentOf(applicant.profile.id)).status).toBe("canceled");
  });
});

describe("Stripe provider (offline)", () => {
  it("is chosen when STRIPE_SECRET_KEY is set; the local checkout is then 404", async () => {
    setEnv(stripeEnv);
    expect(getPaymentProvider().name).toBe("stripe");
    const applicant = await createPayingApplicant();
    expect(await statusOf(getLocalCheckout(sessionUser(applicant), `local_${"0".repeat(32)}`))).toBe(404);
    setEnv(localEnv);
    expect(getPaymentProvider().name).toBe("local");
  });

  it("verifies webhooks with constructEvent and the configured whsec_ secret", async () => {
    setEnv(stripeEnv);
    const provider = getPaymentProvider();
    const payload = JSON.stringify({ id: "evt_stripe_1", object: "event", type: "checkout.session.completed", created: 1, data: { object: { id: "cs_test_1" } } });
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_WHSEC });
    expect(provider.verifyWebhook(payload, header)).toMatchObject({ id: "evt_stripe_1", type: "checkout.session.completed" });
    expect(() => provider.verifyWebhook(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_other" }))).toThrow(
      WebhookSignatureError,
    );
    expect(() => provider.verifyWebhook(payload, null)).toThrow(WebhookSignatureError);
    // An event signed with the local secret is refused once Stripe is configured.
    expect(() => provider.verifyWebhook(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret: localWebhookSecret() }))).toThrow(
      WebhookSignatureError,
    );
  });

  it("creates a Checkout Session with the founding price and applies Stripe's signed webhook", async () => {
    setEnv(stripeEnv);
    const requests: { url: string; body: URLSearchParams; idempotencyKey: string | null }[] = [];
    const fakeFetch: typeof fetch = async (input, init) => {
      const headers = new Headers(init?.headers);
      requests.push({ url: String(input), body: new URLSearchParams(String(init?.body ?? "")), idempotencyKey: headers.get("idempotency-key") });
      return Response.json({ id: "cs_test_abc", object: "checkout.session", url: "https://checkout.stripe.com/c/pay/cs_test_abc" });
    };
    overridePaymentProvider(
      createStripeProvider({ secretKey: "sk_test_fake", webhookSecret: STRIPE_WHSEC, httpClient: Stripe.createFetchHttpClient(fakeFetch) }),
    );
    const applicant = await createPayingApplicant();
    const { url } = await startFoundingCheckout(sessionUser(applicant));
    expect(url).toBe("https://checkout.stripe.com/c/pay/cs_test_abc");
    const payment = await paymentOf(applicant.profile.id);
    expect(payment).toMatchObject({ provider: "stripe", checkoutSessionId: "cs_test_abc", status: "pending" });
    expect(requests).toHaveLength(1);
    const { body } = requests[0];
    expect(requests[0].url).toContain("/v1/checkout/sessions");
    expect(requests[0].idempotencyKey).toBe(`checkout-${payment.id}`);
    expect(Object.fromEntries(body)).toMatchObject({
      mode: "payment",
      "line_items[0][price_data][currency]": "eur",
      "line_items[0][price_data][unit_amount]": "25000",
      "line_items[0][price_data][product_data][name]": "Adhésion membre fondateur — 1 an",
      "line_items[0][quantity]": "1",
      customer_email: applicant.email,
      client_reference_id: payment.id,
      "metadata[paymentId]": payment.id,
      "metadata[profileId]": applicant.profile.id,
      success_url: "http://localhost:3000/onboarding?payment=success",
      cancel_url: "http://localhost:3000/onboarding?payment=canceled",
    });

    const payload = checkoutEvent("checkout.session.completed", payment, { id: "evt_stripe_paid" });
    expect((await handlePaymentWebhook(payload, signLocalWebhook(payload))).status).toBe(400);
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_WHSEC });
    expect((await handlePaymentWebhook(payload, header)).status).toBe(200);
    expect((await handlePaymentWebhook(payload, header)).status).toBe(200);
    expect((await paymentOf(applicant.profile.id)).status).toBe("paid");
    expect((await profileOf(applicant.profile.id)).onboardingStatus).toBe("payment_completed");
    const [event] = await db.select().from(paymentEvents).where(eq(paymentEvents.id, "evt_stripe_paid"));
    expect(event).toMatchObject({ provider: "stripe", type: "checkout.session.completed" });
  });
});
