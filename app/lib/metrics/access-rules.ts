// Who may read /metrics: a client on this machine that came straight to the
// server, or anyone with the bearer token METRICS_TOKEN. Everyone else gets a 404.
import { createHash, timingSafeEqual } from "node:crypto";
import { isLoopbackAddress } from "../net";

/**
 * Headers a proxy adds. A request carrying one went through a proxy: its socket address is the
 * proxy's, so loopback says nothing about the client (a reverse proxy on this machine forwards
 * the whole network), whatever TRUST_PROXY says.
 */
export const FORWARDING_HEADERS = ["forwarded", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-real-ip", "via"] as const;

export type MetricsAccessInput = {
  /** The TCP peer (req.socket.remoteAddress), never an address a header names. */
  socketAddress: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  /** METRICS_TOKEN, when set. */
  token: string | undefined;
};

export type MetricsAccess = { allowed: true; by: "loopback" | "token" } | { allowed: false; reason: "wrong-token" | "not-loopback" | "forwarded" };

function header(headers: MetricsAccessInput["headers"], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** Compares in constant time whatever the lengths (both sides are hashed first). */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  return match?.[1];
}

/**
 * A credential that is presented is checked, even from loopback (a wrong token in a scraper's
 * configuration shows at once); without one, only a direct client on this machine is let in.
 */
export function metricsAccess(input: MetricsAccessInput): MetricsAccess {
  const authorization = header(input.headers, "authorization");
  if (authorization !== undefined && authorization.trim() !== "") {
    const given = bearerToken(authorization);
    return input.token && given !== undefined && sameSecret(given, input.token) ? { allowed: true, by: "token" } : { allowed: false, reason: "wrong-token" };
  }
  if (!isLoopbackAddress(input.socketAddress)) return { allowed: false, reason: "not-loopback" };
  if (FORWARDING_HEADERS.some((name) => header(input.headers, name) !== undefined)) return { allowed: false, reason: "forwarded" };
  return { allowed: true, by: "loopback" };
}
