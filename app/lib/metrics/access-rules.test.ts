import { describe, expect, it } from "vitest";
import { bearerToken, metricsAccess, sameSecret, type MetricsAccess } from "./access-rules";

const TOKEN = "t0k3n-0123456789abcdef0123456789abcdef";

type Case = [string, { socketAddress: string | undefined; headers?: Record<string, string | string[]>; token?: string }, MetricsAccess];

describe("metricsAccess (decision 043)", () => {
  it.each<Case>([
    ["loopback IPv4", { socketAddress: "127.0.0.1" }, { allowed: true, by: "loopback" }],
    ["loopback IPv4, another 127/8 address", { socketAddress: "127.0.0.42" }, { allowed: true, by: "loopback" }],
    ["loopback IPv6", { socketAddress: "::1" }, { allowed: true, by: "loopback" }],
    ["loopback IPv4 mapped into IPv6", { socketAddress: "::ffff:127.0.0.1" }, { allowed: true, by: "loopback" }],
    ["loopback while a token is set", { socketAddress: "127.0.0.1", token: TOKEN }, { allowed: true, by: "loopback" }],
    ["a LAN address", { socketAddress: "192.168.1.20" }, { allowed: false, reason: "not-loopback" }],
    ["a LAN address mapped into IPv6", { socketAddress: "::ffff:10.0.0.5" }, { allowed: false, reason: "not-loopback" }],
    ["a public IPv6 address", { socketAddress: "2001:db8::1" }, { allowed: false, reason: "not-loopback" }],
    ["no socket address", { socketAddress: undefined }, { allowed: false, reason: "not-loopback" }],
    // A remote client cannot make itself loopback by naming 127.0.0.1 in a header.
    ["remote, forged X-Forwarded-For: 127.0.0.1", { socketAddress: "203.0.113.7", headers: { "x-forwarded-for": "127.0.0.1" } }, { allowed: false, reason: "not-loopback" }],
    ["remote, forged X-Real-IP: ::1", { socketAddress: "203.0.113.7", headers: { "x-real-ip": "::1" } }, { allowed: false, reason: "not-loopback" }],
    // A reverse proxy on this machine: loopback socket, but the client is elsewhere.
    ["through a local proxy (X-Forwarded-For)", { socketAddress: "127.0.0.1", headers: { "x-forwarded-for": "203.0.113.7" } }, { allowed: false, reason: "forwarded" }],
    ["through a local proxy naming loopback", { socketAddress: "127.0.0.1", headers: { "x-forwarded-for": "127.0.0.1" } }, { allowed: false, reason: "forwarded" }],
    ["through a local proxy (Forwarded)", { socketAddress: "::1", headers: { forwarded: "for=203.0.113.7" } }, { allowed: false, reason: "forwarded" }],
    ["through a local proxy (X-Real-IP)", { socketAddress: "::ffff:127.0.0.1", headers: { "x-real-ip": "203.0.113.7" } }, { allowed: false, reason: "forwarded" }],
    ["through a local proxy (Via)", { socketAddress: "127.0.0.1", headers: { via: "1.1 nginx" } }, { allowed: false, reason: "forwarded" }],
    ["remote, right token", { socketAddress: "203.0.113.7", headers: { authorization: `Bearer ${TOKEN}` }, token: TOKEN }, { allowed: true, by: "token" }],
    ["remote through a proxy, right token", { socketAddress: "127.0.0.1", headers: { authorization: `bearer ${TOKEN}`, "x-forwarded-for": "203.0.113.7" }, token: TOKEN }, { allowed: true, by: "token" }],
    ["remote, wrong token", { socketAddress: "203.0.113.7", headers: { authorization: `Bearer ${TOKEN}x` }, token: TOKEN }, { allowed: false, reason: "wrong-token" }],
    ["remote, token prefix", { socketAddress: "203.0.113.7", headers: { authorization: `Bearer ${TOKEN.slice(0, 10)}` }, token: TOKEN }, { allowed: false, reason: "wrong-token" }],
    ["remote, token as Basic", { socketAddress: "203.0.113.7", headers: { authorization: `Basic ${TOKEN}` }, token: TOKEN }, { allowed: false, reason: "wrong-token" }],
    ["remote, missing token", { socketAddress: "203.0.113.7", token: TOKEN }, { allowed: false, reason: "not-loopback" }],
    ["remote, a token while none is configured", { socketAddress: "203.0.113.7", headers: { authorization: `Bearer ${TOKEN}` } }, { allowed: false, reason: "wrong-token" }],
    ["loopback with a wrong token", { socketAddress: "127.0.0.1", headers: { authorization: "Bearer nope" }, token: TOKEN }, { allowed: false, reason: "wrong-token" }],
  ])("%s", (_name, input, expected) => {
    expect(metricsAccess({ socketAddress: input.socketAddress, headers: input.headers ?? {}, token: input.token })).toEqual(expected);
  });

  it("reads the bearer token of an Authorization header", () => {
    expect(bearerToken("Bearer abc")).toBe("abc");
    expect(bearerToken("  BEARER   abc  ")).toBe("abc");
    expect(bearerToken("Bearer a b")).toBeUndefined();
    expect(bearerToken("Basic abc")).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });

  it("compares secrets of any length", () => {
    expect(sameSecret(TOKEN, TOKEN)).toBe(true);
    expect(sameSecret(TOKEN, `${TOKEN}x`)).toBe(false);
    expect(sameSecret("", TOKEN)).toBe(false);
  });
});
