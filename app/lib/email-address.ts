// One rule for an e-mail address the app will write to: the outbox refuses
// any other, so every form that collects an address to be mailed checks it with this same rule
// instead of a looser pattern that lets `"eve"@domaine.fr` or `eve(x)@domaine.fr` through.
import { z } from "zod";

/** RFC 5321's limit on a forward path. */
export const MAX_EMAIL_LENGTH = 254;

// zod's address pattern: a dot-atom local part and a DNS domain; no quoted local parts, comments,
// IP literals or display names — forms mailers and anti-spam filters treat inconsistently.
const mailbox = z.email();

/** Whether the outbox will accept this address (already trimmed; case does not matter). */
export function isSendableEmail(value: string): boolean {
  return value.length <= MAX_EMAIL_LENGTH && mailbox.safeParse(value).success;
}
