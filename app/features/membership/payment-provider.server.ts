// Payment providers: Stripe Checkout when STRIPE_SECRET_KEY is set, otherwise a clearly marked
// local test checkout. Both sign and verify webhooks with the Stripe library, so the local
// path runs through exactly the same webhook handling code as a real payment.
import { createHmac, randomBytes } from "node:crypto";
import Stripe from "stripe";
import { z } from "zod";
import { getEnv } from "~/lib/env.server";
import { getAppSecret } from "~/lib/secrets.server";
import { PAYMENT_CURRENCY } from "./offers";

export const FOUNDING_PRODUCT_NAME = "Adhésion membre fondateur — 1 an";

export type CheckoutInput = {
  paymentId: string;
  profileId: string;
  customerEmail: string;
  amountCents: number;
  successUrl: string;
  cancelUrl: string;
};

export type CheckoutResult = { sessionId: string; url: string | null };

/** The part of a provider event this application reads; the rest is ignored. */
export type WebhookEvent = {
  id: string;
  type: string;
  created: number | null;
  data: { object: Record<string, unknown> };
};

export interface PaymentProvider {
  name: "stripe" | "local";
  createCheckout(input: CheckoutInput): Promise<CheckoutResult>;
  /** Throws a WebhookSignatureError on a missing or bad signature (or an unreadable body). */
  verifyWebhook(rawBody: string, signature: string | null): WebhookEvent;
}

export class WebhookSignatureError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "WebhookSignatureError";
  }
}

const eventSchema = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  created: z.number().int().nullish(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

function verifyWithStripeLibrary(rawBody: string, signature: string | null, secret: string): WebhookEvent {
  if (!signature) throw new WebhookSignatureError("missing stripe-signature header");
  let event: unknown;
  try {
    event = Stripe.webhooks.constructEvent(rawBody, signature, secret);
  } catch (error) {
    throw new WebhookSignatureError("invalid webhook signature or body", { cause: error });
  }
  const parsed = eventSchema.safeParse(event);
  if (!parsed.success) throw new WebhookSignatureError("unexpected webhook event shape");
  return { ...parsed.data, created: parsed.data.created ?? null };
}

type StripeConfig = NonNullable<ConstructorParameters<typeof Stripe>[1]>;

export type StripeProviderOptions = {
  secretKey: string;
  webhookSecret: string;
  /** Tests pass a fake HTTP client (e.g. `Stripe.createFetchHttpClient(fakeFetch)`). */
  httpClient?: StripeConfig["httpClient"];
};

export function createStripeProvider(options: StripeProviderOptions): PaymentProvider {
  const stripe = new Stripe(options.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(options.httpClient ? { httpClient: options.httpClient } : {}),
  });
  return {
    name: "stripe",
    async createCheckout(input) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: "payment",
          line_items: [
            {
              price_data: {
                currency: PAYMENT_CURRENCY,
                unit_amount: input.amountCents,
                product_data: { name: FOUNDING_PRODUCT_NAME },
              },
              quantity: 1,
            },
          ],
          customer_email: input.customerEmail,
          client_reference_id: input.paymentId,
          metadata: { paymentId: input.paymentId, profileId: input.profileId },
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          locale: "fr",
        },
        // A retried request for the same payment row never opens a second session.
        { idempotencyKey: `checkout-${input.paymentId}` },
      );
      return { sessionId: session.id, url: session.url ?? null };
    },
    verifyWebhook(rawBody, signature) {
      return verifyWithStripeLibrary(rawBody, signature, options.webhookSecret);
    },
  };
}

/** Webhook secret of the local test checkout: derived from the app secret, never stored. */
export function localWebhookSecret(): string {
  return `whsec_${createHmac("sha256", getAppSecret()).update("local-webhook").digest("hex")}`;
}

/** A `stripe-signature` header for a local test event, made by the Stripe library itself. */
export function signLocalWebhook(payload: string): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret: localWebhookSecret() });
}

export const LOCAL_CHECKOUT_PATH = "/paiement-test";

export function createLocalProvider(): PaymentProvider {
  return {
    name: "local",
    async createCheckout() {
      const sessionId = `local_${randomBytes(16).toString("hex")}`;
      return { sessionId, url: `${getEnv().APP_URL}${LOCAL_CHECKOUT_PATH}/${sessionId}` };
    },
    verifyWebhook(rawBody, signature) {
      return verifyWithStripeLibrary(rawBody, signature, localWebhookSecret());
    },
  };
}

const cache: { key?: string; provider?: PaymentProvider; override?: PaymentProvider } = {};

/** Tests only: forces a provider (a fake one, or Stripe with a fake HTTP client); undefined resets. */
export function overridePaymentProvider(provider: PaymentProvider | undefined) {
  cache.override = provider;
}

/** Stripe when STRIPE_SECRET_KEY is set (parseEnv then requires STRIPE_WEBHOOK_SECRET), else local. */
export function getPaymentProvider(): PaymentProvider {
  if (cache.override) return cache.override;
  const env = getEnv();
  const key = env.STRIPE_SECRET_KEY ? `stripe:${env.STRIPE_SECRET_KEY}:${env.STRIPE_WEBHOOK_SECRET}` : "local";
  if (cache.key !== key || !cache.provider) {
    cache.provider =
      env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET
        ? createStripeProvider({ secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET })
        : createLocalProvider();
    cache.key = key;
  }
  return cache.provider;
}

/** The local test checkout exists only while Stripe is not configured. */
export function isLocalCheckoutEnabled(): boolean {
  return getPaymentProvider().name === "local";
}
