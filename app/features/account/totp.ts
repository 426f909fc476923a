// Authenticator-app enrolment (RFC 6238 TOTP): how the shared secret is shown to the member.
// Pure: the secret itself is created, encrypted and checked by better-auth's two-factor plugin.

const BASE32_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 without padding, the form authenticator apps expect. */
export function base32Encode(bytes: Uint8Array): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32_ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;

/**
 * The otpauth:// URI of a raw secret, built exactly as better-auth builds it when the factor is
 * created (issuer, account, base32 of the secret's UTF-8 bytes, 6 digits, 30 s).
 */
export function otpauthUri({ issuer, account, secret }: { issuer: string; account: string; secret: string }): string {
  const params = new URLSearchParams({
    secret: base32Encode(new TextEncoder().encode(secret)),
    issuer,
    digits: String(TOTP_DIGITS),
    period: String(TOTP_PERIOD_SECONDS),
  });
  return `otpauth://totp/${encodeURIComponent(issuer)}:${encodeURIComponent(account)}?${params.toString()}`;
}

/** The base32 secret carried by an otpauth:// URI, or null. */
export function secretOfOtpauthUri(uri: string): string | null {
  if (!uri.startsWith("otpauth://")) return null;
  const query = uri.indexOf("?");
  if (query < 0) return null;
  const secret = new URLSearchParams(uri.slice(query + 1)).get("secret");
  return secret && /^[A-Z2-7]+=*$/.test(secret) ? secret : null;
}

/** "ABCD EFGH IJKL …": easier to type into an app by hand. */
export function groupSecret(secret: string, size = 4): string {
  return (secret.match(new RegExp(`.{1,${size}}`, "g")) ?? []).join(" ");
}
