import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { createRenderCache, renderKey, type RenderInputs, wantsFreshCopy } from "./render-cache.server";

describe("renderKey", () => {
  const same: Array<[string, unknown, unknown]> = [
    ["equal plain data", { a: 1, b: ["x", null] }, { a: 1, b: ["x", null] }],
    ["equal dates", { at: new Date(5) }, { at: new Date(5) }],
  ];
  it.each(same)("is the same for %s", (_label, a, b) => {
    expect(renderKey(a, [])).toBe(renderKey(b, []));
  });

  const different: Array<[string, unknown, unknown]> = [
    ["a changed value", { a: 1 }, { a: 2 }],
    ["a date and its ISO text", { at: new Date(0) }, { at: new Date(0).toISOString() }],
    ["undefined and a missing key", { a: undefined }, {}],
    ["undefined and null", { a: undefined }, { a: null }],
    ["keys in another order", { a: 1, b: 2 }, { b: 2, a: 1 }],
    ["a number and its text", { a: 1 }, { a: "1" }],
    ["0 and -0", { a: 0 }, { a: -0 }],
    ["true and 'T'", [true], ["T"]],
    ["an empty array and an empty object", [], {}],
    ["a bigint and a number", [1n], [1]],
    ["a hole and null", [1, undefined], [1, null]],
  ];
  it.each(different)("differs for %s", (_label, a, b) => {
    expect(renderKey(a, [])).not.toBe(renderKey(b, []));
  });

  const unkeyable: Array<[string, unknown]> = [
    ["a promise", { p: Promise.resolve(1) }],
    ["a Map", { m: new Map() }],
    ["a Set", [new Set([1])]],
    ["a function", { f: () => 1 }],
    ["a symbol", { s: Symbol("x") }],
    ["a class instance", { u: new URL("https://example.org") }],
    ["an error", { e: new Error("x") }],
  ];
  it.each(unkeyable)("is null for data holding %s", (_label, value) => {
    expect(renderKey(value, [])).toBeNull();
  });

  it("accepts objects without a prototype", () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1 });
    expect(renderKey(bare, [])).toBe(renderKey({ a: 1 }, []));
  });

  it("writes the request's own tokens as placeholders", () => {
    const a = renderKey({ requestId: "11111111-aaaa", user: "x" }, ["11111111-aaaa", "nonceA"]);
    const b = renderKey({ requestId: "22222222-bbbb", user: "x" }, ["22222222-bbbb", "nonceB"]);
    expect(a).toBe(b);
    const other = renderKey({ requestId: "22222222-bbbb", user: "y" }, ["22222222-bbbb", "nonceB"]);
    expect(other).not.toBe(a);
  });

  it.each([
    ["a Latin-1 string", (t: string) => ({ note: `Réf. ${t} – ok`.replace("–", "-") })],
    ["a string beyond Latin-1 (two bytes per character)", (t: string) => ({ note: `Réf. ${t} — 5 €` })],
    ["a key", (t: string) => ({ [`k-${t}`]: 1 })],
    ["several places", (t: string) => ({ a: t, b: [t, `${t}${t}`], c: `« ${t} »` })],
  ])("masks the tokens in %s", (_label, make) => {
    const a = renderKey(make("nonceAAAAAAAAAAA"), ["req-1", "nonceAAAAAAAAAAA"]);
    const b = renderKey(make("nonceBBBBBBBBBBB"), ["req-2", "nonceBBBBBBBBBBB"]);
    expect(a).toBe(b);
    expect(renderKey(make("nonceBBBBBBBBBBB"), ["req-2", "nonceCCCCCCCCCCC"])).not.toBe(a);
  });

  it("keeps objects apart that differ past the first level, and sees a value changed in place", () => {
    const data = { page: { rows: [{ id: "a", tags: ["x"] }] } };
    const before = renderKey(data, []);
    data.page.rows[0]!.tags.push("y");
    expect(renderKey(data, [])).not.toBe(before);
  });
});

describe("wantsFreshCopy", () => {
  const cases: Array<[Record<string, string>, boolean]> = [
    [{}, false],
    [{ "cache-control": "no-cache" }, true],
    // A reload (F5) asks HTTP caches to revalidate; the loaders run anyway, the HTML is the same.
    [{ "cache-control": "max-age=0" }, false],
    [{ "cache-control": "no-store" }, true],
    [{ "cache-control": "max-age=600" }, false],
    [{ pragma: "no-cache" }, true],
  ];
  it.each(cases)("%j → %s", (headers, expected) => {
    expect(wantsFreshCopy(new Headers(headers))).toBe(expected);
  });
});

describe("createRenderCache", () => {
  const tokens = (n: number) => ({ nonce: `nonce-${n}-xyz`, requestId: `req-${n}-0000-uuid` });
  const inputs = (over: Partial<RenderInputs> = {}): RenderInputs => ({
    method: "GET",
    url: "http://x/dashboard",
    status: 200,
    routes: ["root", "routes/member/dashboard"],
    loaderData: { root: { requestId: tokens(1).requestId, user: "a@b.fr" } },
    actionData: null,
    errors: null,
    mode: "onShellReady",
    ...over,
  });
  const html = (n: number) => `<script nonce="${tokens(n).nonce}">ctx("${tokens(n).requestId}")</script><p>Bonjour</p>`;

  it("serves a render again with the next request's nonce and request id", () => {
    const cache = createRenderCache({ maxBytes: 1024 * 1024 });
    const key = cache.keyFor(inputs(), new Headers(), tokens(1));
    expect(key).toBeTruthy();
    expect(cache.get(key!, tokens(1))).toBeUndefined();
    cache.set(key!, html(1), tokens(1));
    // The second request's loader data holds its own request id: same key.
    const next = inputs({ loaderData: { root: { requestId: tokens(2).requestId, user: "a@b.fr" } } });
    const key2 = cache.keyFor(next, new Headers(), tokens(2));
    expect(key2).toBe(key);
    expect(cache.get(key2!, tokens(2))).toEqual({ html: html(2) });
    expect(cache.stats).toEqual({ hits: 1, misses: 1, stores: 1 });
  });

  it("sends a kept render gzip-compressed, with the request's own tokens, when gzip is accepted", () => {
    const cache = createRenderCache({ maxBytes: 1024 * 1024 });
    cache.set("k", html(1), tokens(1));
    for (const n of [2, 3]) {
      const kept = cache.get("k", tokens(n), "gzip, deflate, br");
      expect(kept?.html).toBeUndefined();
      expect(gunzipSync(kept!.gzip!).toString("utf8")).toBe(html(n));
    }
    expect(cache.get("k", tokens(4), "br")).toEqual({ html: html(4) });
    expect(cache.get("k", tokens(5), "gzip;q=0")).toEqual({ html: html(5) });
  });

  it("counts the compressed copy in its memory", () => {
    // 8 pages of 300 bytes fill 2 400; once one is compressed too, the least recent goes.
    const cache = createRenderCache({ maxBytes: 8 * 300 });
    const page = (i: number) => `<p>${"abcdefghij".repeat(30)}`.slice(0, 295) + `${i}</p>`;
    for (let i = 0; i < 8; i++) cache.set(`k${i}`, page(i), tokens(1));
    expect(cache.get("k0", tokens(1))?.html).toBe(page(0));
    expect(gunzipSync(cache.get("k1", tokens(1), "gzip")!.gzip!).toString()).toBe(page(1));
    expect(cache.get("k2", tokens(1))).toBeUndefined();
    expect(cache.get("k0", tokens(1))?.html).toBe(page(0));
    expect(gunzipSync(cache.get("k1", tokens(1), "gzip")!.gzip!).toString()).toBe(page(1));
  });

  it("stays within its memory and forgets after its time", () => {
    let now = 0;
    const cache = createRenderCache({ maxBytes: 8 * 100, ttlMs: 1000, now: () => now });
    const page = "x".repeat(90);
    for (let i = 0; i < 12; i++) cache.set(`k${i}`, page, tokens(1));
    // 800 bytes hold 8 pages of 90: the oldest went first.
    expect(cache.get("k0", tokens(1))).toBeUndefined();
    expect(cache.get("k11", tokens(1))).toEqual({ html: page });
    now = 1001;
    expect(cache.get("k11", tokens(1))).toBeUndefined();
  });
});
