// Client addresses (as server.ts sets them in x-rt-client-ip: the socket's address, or the one
// the trusted proxy appended when TRUST_PROXY is on).

/** 127.0.0.0/8, ::1 and their IPv4-mapped IPv6 forms: the machine itself. */
export function isLoopbackAddress(address: string | null | undefined): boolean {
  if (!address) return false;
  const a = address.trim().toLowerCase();
  if (a === "::1" || a === "0:0:0:0:0:0:0:1") return true;
  const v4 = a.startsWith("::ffff:") ? a.slice("::ffff:".length) : a;
  const parts = v4.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return false;
  return parts[0] === "127";
}
