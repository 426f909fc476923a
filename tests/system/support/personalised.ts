// A page served again from memory (the page cache, decision 007)
// must carry the nonce of its own response's CSP on every inline script and its own request id.
import { expect } from "vitest";

export type Fetched = { res: Response; body: string };

export const nonceOf = (res: Response) => /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1];

/** `again` is `first` served again: same page, this response's nonce and request id only. */
export function expectPersonalisedCopy(first: Fetched, again: Fetched): void {
  const nonce = nonceOf(again.res);
  expect(nonce).toBeTruthy();
  expect(nonce).not.toBe(nonceOf(first.res));
  // Every inline script carries the nonce of this response's CSP, or the browser would block it.
  const nonces = [...again.body.matchAll(/<script[^>]*\snonce="([^"]+)"/g)].map((m) => m[1]);
  expect(nonces.length).toBeGreaterThan(0);
  expect(new Set(nonces)).toEqual(new Set([nonce]));
  const requestId = again.res.headers.get("x-request-id")!;
  expect(again.body).toContain(requestId);
  expect(again.body).not.toContain(first.res.headers.get("x-request-id")!);
  const normalise = (page: Fetched) => page.body.split(nonceOf(page.res)!).join("NONCE").split(page.res.headers.get("x-request-id")!).join("ID");
  expect(normalise(again)).toBe(normalise(first));
}
