// Sponsor confirmation links: /confirm-recommendation?profile=…&email=…&token=…
// The spec's two parameters stay; the token (an HMAC of both under the app secret) makes the
// link unforgeable: knowing a profile id and an e-mail is not enough.
import { createHmac, timingSafeEqual } from "node:crypto";
import { getEnv } from "~/lib/env.server";
import { getAppSecret } from "~/lib/secrets.server";

export function recommendationToken(profileId: string, email: string): string {
  return createHmac("sha256", getAppSecret())
    .update(`recommendation:${profileId}:${email.trim().toLowerCase()}`)
    .digest("base64url")
    .slice(0, 32);
}

export function verifyRecommendationToken(profileId: string, email: string, token: string | null | undefined): boolean {
  if (!token) return false;
  const expected = Buffer.from(recommendationToken(profileId, email));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export function recommendationUrl(profileId: string, email: string): string {
  const params = new URLSearchParams({ profile: profileId, email, token: recommendationToken(profileId, email) });
  return `${getEnv().APP_URL}/confirm-recommendation?${params.toString()}`;
}
