// One-click-away unsubscribe links for notification e-mails:
// /desabonnement?profile=…&type=…&token=… where the token is an HMAC of the profile id and the
// preference under the app secret, so that knowing a profile id is not enough to change it.
// Features that send a notification call unsubscribeUrl(profileId, type) and pass the result to
// the notification template (`unsubscribeUrl` prop).
import { createHmac, timingSafeEqual } from "node:crypto";
import { getEnv } from "~/lib/env.server";
import { getAppSecret } from "~/lib/secrets.server";
import type { NotificationType } from "./account.schema";

export function unsubscribeToken(profileId: string, type: NotificationType): string {
  return createHmac("sha256", getAppSecret()).update(`unsubscribe:${profileId}:${type}`).digest("base64url").slice(0, 32);
}

export function verifyUnsubscribeToken(profileId: string, type: NotificationType, token: string | null | undefined): boolean {
  if (!token) return false;
  const expected = Buffer.from(unsubscribeToken(profileId, type));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Absolute link that turns off one kind of notification e-mail for a profile. */
export function unsubscribeUrl(profileId: string, type: NotificationType): string {
  const params = new URLSearchParams({ profile: profileId, type, token: unsubscribeToken(profileId, type) });
  return `${getEnv().APP_URL}/desabonnement?${params.toString()}`;
}
