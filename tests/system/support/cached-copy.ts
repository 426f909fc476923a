// A page served again from memory (the page cache, decision 007 and 066): the same page as
// rendered, without the nonce and request id of the response it was rendered for, and a CSP
// that allows each of its inline scripts by hash — and nothing else inline.
import { createHash } from "node:crypto";
import { expect } from "vitest";

export type Fetched = { res: Response; body: string };

const csp = (res: Response) => res.headers.get("content-security-policy") ?? "";
export const nonceOf = (res: Response) => /'nonce-([^']+)'/.exec(csp(res))?.[1];
const inlineScripts = (body: string) => [...body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].map((m) => ({ attributes: m[1]!, text: m[2]! }));

/** `again` is `first` (a rendered page) served from the page cache. */
export function expectCachedCopy(first: Fetched, again: Fetched): void {
  const firstNonce = nonceOf(first.res);
  expect(firstNonce).toBeTruthy();
  expect(nonceOf(again.res)).toBeUndefined();
  const policy = /script-src ([^;]*)/.exec(csp(again.res))?.[1] ?? "";
  expect(policy).not.toContain("unsafe");
  expect(policy).toContain("'strict-dynamic'");
  // Every inline script is allowed by its hash, or the browser would block it.
  const scripts = inlineScripts(again.body);
  expect(scripts.length).toBeGreaterThan(0);
  for (const script of scripts) {
    expect(script.attributes).not.toContain("src=");
    expect(policy).toContain(`'sha256-${createHash("sha256").update(script.text, "utf8").digest("base64")}'`);
  }
  expect(again.body).not.toContain("nonce=");
  expect(again.body).not.toContain(firstNonce!);
  // No request's id in a copy served to many.
  const firstId = first.res.headers.get("x-request-id")!;
  expect(again.res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  expect(again.res.headers.get("x-request-id")).not.toBe(firstId);
  expect(again.body).not.toContain(firstId);
  expect(again.body).not.toContain(again.res.headers.get("x-request-id")!);
  expect(again.body).toBe(first.body.split(` nonce="${firstNonce}"`).join("").split(firstId).join(""));
}
