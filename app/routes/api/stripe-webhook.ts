// Payment provider webhook (Stripe, or the local test checkout's signed events). Authenticated
// by its signature, not by a session; exempt from the same-origin check in server.ts.
import { handlePaymentWebhook } from "~/features/membership/membership.server";
import { logger } from "~/lib/logger.server";
import type { Route } from "./+types/stripe-webhook";
import { atEdge } from "~/lib/errors/http";

// Checkout events are a few kilobytes; anything much larger is not one of them.
const MAX_BODY_BYTES = 512 * 1024;

function plain(status: number, body: string) {
  return new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
}

export const loader = atEdge(function loader() {
  return plain(405, "Méthode non autorisée");
});

export const action = atEdge(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return plain(405, "Méthode non autorisée");
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) return plain(413, "Contenu trop volumineux");
  // The signature covers the exact bytes received: read the raw text, never a parsed body.
  const rawBody = await request.text();
  if (Buffer.byteLength(rawBody) > MAX_BODY_BYTES) return plain(413, "Contenu trop volumineux");
  try {
    const { status } = await handlePaymentWebhook(rawBody, request.headers.get("stripe-signature"));
    return plain(status, status === 200 ? "ok" : "Signature invalide");
  } catch (error) {
    // A 500 makes the provider retry later; the event is not recorded (same transaction).
    logger.error({ err: error, requestId: context.requestId }, "payment webhook failed");
    return plain(500, "Erreur");
  }
});
