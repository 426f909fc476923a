// One-click-away unsubscribe links for notification e-mails:
// /desabonnement?profile=…&type=…&token=… (a guest account: invite=<user id>) where the token is an
// HMAC of the id and the preference under the app secret, so that knowing an id is not enough to change it.
// Features that send a notification call unsubscribeUrl(profileId, type) and pass the result to
// the notification template (`unsubscribeUrl` prop).
import { createHmac, timingSafeEqual } from "node:crypto";
import { getEnv } from "~/lib/env.server";
import { getAppSecret } from "~/lib/secrets.server";
import type { NotificationType } from "./account.schema";

/** Whose preference a link turns off: a member's profile, or a file's guest account (no profile). */
export type UnsubscribeHolder = { kind: "profile" | "guest"; id: string };

function tokenOf(holder: UnsubscribeHolder, type: NotificationType): string {
  const subject = holder.kind === "profile" ? `unsubscribe:${holder.id}:${type}` : `unsubscribe-guest:${holder.id}:${type}`;
  return createHmac("sha256", getAppSecret()).update(subject).digest("base64url").slice(0, 32);
}

export function unsubscribeToken(profileId: string, type: NotificationType): string {
  return tokenOf({ kind: "profile", id: profileId }, type);
}

export function verifyUnsubscribeToken(holder: UnsubscribeHolder, type: NotificationType, token: string | null | undefined): boolean {
  if (!token) return false;
  const expected = Buffer.from(tokenOf(holder, type));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Absolute link that turns off one kind of notification e-mail for a profile. */
export function unsubscribeUrl(profileId: string, type: NotificationType): string {
  const params = new URLSearchParams({ profile: profileId, type, token: unsubscribeToken(profileId, type) });
  return `${getEnv().APP_URL}/desabonnement?${params.toString()}`;
}

/** The same for a guest account, keyed by its user id (`invite=`): it has no profile. */
export function guestUnsubscribeUrl(userId: string, type: NotificationType): string {
  const params = new URLSearchParams({ invite: userId, type, token: tokenOf({ kind: "guest", id: userId }, type) });
  return `${getEnv().APP_URL}/desabonnement?${params.toString()}`;
}
