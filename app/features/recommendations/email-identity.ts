// Who is behind an e-mail address, for the sponsor rules: "eve+s1@x.fr" and
// "EVE+S2@x.fr" are the applicant "eve@x.fr". Compared after normalisation: lower case, the
// "+tag" of plus-addressing dropped, and for the providers that ignore dots in the local part
// (Gmail) the dots dropped too.

/** A sponsor as the applicant names them. */
export type Sponsor = { name: string; email: string };

const DOTS_IGNORED = new Set(["gmail.com", "googlemail.com"]);
const ALIASES: Record<string, string> = { "googlemail.com": "gmail.com" };

/** The mailbox an address reaches: "Eve.Martin+pro@GMail.com" → "evemartin@gmail.com". */
export function emailIdentity(address: string): string {
  const a = address.trim().toLowerCase();
  const at = a.lastIndexOf("@");
  if (at <= 0) return a;
  let local = a.slice(0, at);
  let domain = a.slice(at + 1).replace(/\.+$/, "");
  domain = ALIASES[domain] ?? domain;
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  if (DOTS_IGNORED.has(domain)) local = local.replace(/\./g, "");
  return `${local}@${domain}`;
}

export function sameMailbox(a: string, b: string): boolean {
  return emailIdentity(a) === emailIdentity(b);
}

// Mail providers shared by millions: the same domain there says nothing about who is who.
const PUBLIC_DOMAINS = new Set([
  "gmail.com", "googlemail.com", "outlook.com", "outlook.fr", "hotmail.com", "hotmail.fr", "live.fr", "live.com",
  "msn.com", "yahoo.com", "yahoo.fr", "icloud.com", "me.com", "orange.fr", "wanadoo.fr", "free.fr", "sfr.fr",
  "neuf.fr", "laposte.net", "bbox.fr", "aol.com", "gmx.fr", "gmx.com", "protonmail.com", "proton.me",
]);

export function emailDomain(address: string): string {
  const a = address.trim().toLowerCase();
  return a.slice(a.lastIndexOf("@") + 1);
}

/** A sponsor on the applicant's own (non-public) domain: worth a look by the team. */
export function sharesPrivateDomain(applicant: string, sponsor: string): boolean {
  const domain = emailDomain(applicant);
  return domain !== "" && !PUBLIC_DOMAINS.has(domain) && emailDomain(sponsor) === domain;
}
