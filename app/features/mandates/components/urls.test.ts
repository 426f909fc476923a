import { describe, expect, it } from "vitest";
import { mandatesHref, safeMandatesReturn } from "./urls";

describe("mandatesHref", () => {
  it("keeps the tab and filter, drops open dialogs, applies changes", () => {
    const current = new URLSearchParams("onglet=opportunites&matching=abc&demande=x");
    expect(mandatesHref(current)).toBe("/mandates?onglet=opportunites");
    expect(mandatesHref(current, { details: "m1" })).toBe("/mandates?onglet=opportunites&details=m1");
    expect(mandatesHref(current, { onglet: null })).toBe("/mandates");
    expect(mandatesHref("filtre=expires", { nouveau: "1" })).toBe("/mandates?filtre=expires&nouveau=1");
  });
});

describe("safeMandatesReturn", () => {
  it.each([
    ["/mandates", "/mandates"],
    ["/mandates?matching=abc", "/mandates?matching=abc"],
    ["//evil.example/mandates", "/mandates"],
    ["https://evil.example", "/mandates"],
    ["/dashboard", "/mandates"],
    ["/mandates/../admin", "/mandates"],
    [null, "/mandates"],
  ])("%j → %s", (input, out) => expect(safeMandatesReturn(input)).toBe(out));
});
