import { crc32, gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { acceptsGzip, crc32Combine, gzipFrom, gzipTemplate } from "./gzip-template.server";

describe("crc32Combine", () => {
  const cases: Array<[string, string, string]> = [
    ["two words", "hello ", "world"],
    ["an empty second part", "abc", ""],
    ["an empty first part", "", "abc"],
    ["accented text", "Cession de fonds ", "à Montpellier — 12 €"],
    ["a long second part", "x", "0123456789".repeat(10_007)],
  ];
  it.each(cases)("gives the CRC of the whole for %s", (_label, a, b) => {
    const whole = crc32(Buffer.from(a + b));
    expect(crc32Combine(crc32(Buffer.from(a)), crc32(Buffer.from(b)), Buffer.byteLength(b))).toBe(whole);
  });
});

describe("gzipTemplate / gzipFrom", () => {
  const page = (nonce: string, id: string) =>
    `<!DOCTYPE html><html lang="fr"><head><script nonce="${nonce}">window.t=1</script></head>` +
    `<body><p>Demande ${id}</p>${"<li>Mandat de cession — Hérault</li>".repeat(400)}` +
    `<script nonce="${nonce}">hydrate()</script><script nonce="${nonce}"></script></body></html>`;

  const gunzip = (b: Buffer | null) => gunzipSync(b!).toString("utf8");

  // gunzip checks the trailer's CRC-32 and length.
  const cases: Array<[string, string, string]> = [
    ["other tokens", "NEW-NONCE-0001", "req-2222"],
    ["tokens repeating the page's text", "<li>Mandat de ", "cession "],
    ["tokens repeating the old ones", "OLD-NONCE-0001", "req-1112"],
    ["accented tokens", "é-NONCE-00001", "ü-11111"],
  ];
  it.each(cases)("decompresses to the page with its own tokens: %s", (_label, nonce, id) => {
    const template = gzipTemplate(page("OLD-NONCE-0000", "req-1111"), ["OLD-NONCE-0000", "req-1111"]);
    expect(gunzip(gzipFrom(template, [nonce, id]))).toBe(page(nonce, id));
  });

  it("gives nothing for tokens of another byte length (the pieces' distances assume the old ones)", () => {
    const template = gzipTemplate(page("OLD-NONCE-0000", "req-1111"), ["OLD-NONCE-0000", "req-1111"]);
    expect(gzipFrom(template, ["short", "req-2222"])).toBeNull();
    expect(gzipFrom(template, ["NEW-NONCE-0001", "req-2222-longer"])).toBeNull();
    expect(gzipFrom(template, ["é-NONCE-000001", "req-2222"])).toBeNull();
  });

  it("handles tokens at both ends, side by side, and a page without any", () => {
    const body = "N<a>RN</a>NR";
    const template = gzipTemplate(body, ["N", "R"]);
    expect(template.text.filter((p) => typeof p === "number")).toEqual([0, 1, 0, 0, 1]);
    expect(gunzip(gzipFrom(template, ["n", "r"]))).toBe("n<a>rn</a>nr");
    expect(gunzip(gzipFrom(gzipTemplate("<p>rien</p>", ["", ""]), ["", ""]))).toBe("<p>rien</p>");
    expect(gunzip(gzipFrom(gzipTemplate("", ["N"]), ["X"]))).toBe("");
  });

  it("keeps a page holding NUL bytes exact (no dictionary then)", () => {
    const body = `\u0000${page("OLD-NONCE-0000", "req-1111")}\u0000\u0000`;
    const template = gzipTemplate(body, ["OLD-NONCE-0000", "req-1111"]);
    expect(gunzip(gzipFrom(template, ["\u0000\u0000\u0000-NONCE-0001", "req-2222"]))).toBe(body.replaceAll("OLD-NONCE-0000", "\u0000\u0000\u0000-NONCE-0001").replace("req-1111", "req-2222"));
  });

  it("refers back across tokens and to a token's earlier occurrence", () => {
    // A head with a nonce every hundred bytes, as React Router's modulepreload links.
    const links = Array.from({ length: 40 }, (_, i) => `<link rel="modulepreload" href="/assets/chunk-${i}.js" nonce="OLD-NONCE-0000"/>`).join("");
    const body = links + page("OLD-NONCE-0000", "req-1111") + links.replaceAll("chunk", "route");
    const template = gzipTemplate(body, ["OLD-NONCE-0000", "req-1111"]);
    const once = gzipFrom(template, ["NEW-NONCE-0001", "req-2222"])!;
    expect(gunzip(once)).toBe(body.replaceAll("OLD-NONCE-0000", "NEW-NONCE-0001").replace("req-1111", "req-2222"));
    // Only the first occurrence of each token is sent as it is.
    expect(template.stream.filter((p) => typeof p === "number")).toEqual([0, 1]);
    // The cost of cutting: at most ~20 bytes per occurrence over the page compressed in one go
    // (a piece compressed alone, without the page before it, cost hundreds).
    const occurrences = template.text.filter((p) => typeof p === "number").length;
    expect(occurrences).toBe(84);
    expect(once.length).toBeLessThan(gzipSync(body).length + 20 * occurrences);
    expect(template.bytes).toBeLessThan(once.length);
  });

  it("sends a token again as it is when its last occurrence is out of deflate's window", () => {
    const body = `<a nonce="NONCE">${"<p>Annonce de cession n°1234 à Lyon</p>".repeat(1000)}<b nonce="NONCE">`;
    const template = gzipTemplate(body, ["NONCE"]);
    expect(template.stream.filter((p) => typeof p === "number")).toEqual([0, 0]);
    expect(gunzip(gzipFrom(template, ["abcde"]))).toBe(body.replaceAll("NONCE", "abcde"));
  });

  it("covers a page longer than deflate's window", () => {
    const body = Array.from({ length: 3000 }, (_, i) => `<tr><td>${i}</td><td nonce="NONCE">Profil ${i * 7919}</td></tr>`).join("");
    const out = gunzip(gzipFrom(gzipTemplate(body, ["NONCE", ""]), ["abcde", ""]));
    expect(out).toBe(body.replaceAll("NONCE", "abcde"));
  });
});

describe("acceptsGzip", () => {
  const cases: Array<[string | null, boolean]> = [
    [null, false],
    ["", false],
    ["gzip", true],
    ["gzip, deflate, br, zstd", true],
    ["br", false],
    ["identity", false],
    ["GZIP", true],
    ["x-gzip", true],
    ["gzip;q=0", false],
    ["gzip; q=0.000", false],
    ["gzip;q=0.5", true],
    ["br;q=1.0, gzip;q=0.8, *;q=0.1", true],
    ["*", true],
    ["*;q=0", false],
    ["br, *;q=0", false],
    ["gzip;q=0, *", false],
    ["gzip;q=abc", false],
  ];
  it.each(cases)("%j → %s", (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});
