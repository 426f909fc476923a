import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { metaDescription, serializeJsonLd } from "./seo";

function scriptBlocks(html: string) {
  return html.match(/<script\b[^>]*>[\s\S]*?<\/script>/gi) ?? [];
}

describe("serializeJsonLd", () => {
  it.each([
    ["</script><script>alert(1)</script>"],
    ["<!-- comment"],
    ["a & b > c < d"],
    ["line\u2028separator\u2029paragraph"],
    ["</SCRIPT >"],
  ])("neutralises %j", (name) => {
    const json = serializeJsonLd({ "@type": "Person", name });
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual({ "@type": "Person", name });
  });

  it("any string round-trips and yields exactly one script block", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.string(), (name, description) => {
        const value = { "@context": "https://schema.org", "@type": "Person", name, description };
        const json = serializeJsonLd(value);
        expect(JSON.parse(json)).toEqual(value);
        const html = `<head><script type="application/ld+json">${json}</script></head>`;
        expect(scriptBlocks(html)).toHaveLength(1);
        expect(json.toLowerCase()).not.toContain("</script");
        expect(json).not.toContain("<!--");
      }),
      { numRuns: 500 },
    );
  });
});

describe("metaDescription", () => {
  it.each([
    [null, ""],
    ["  court  texte ", "court texte"],
    ["a".repeat(200), "a".repeat(150)],
    ["x ".repeat(100), "x ".repeat(75).trim()],
    ["é".repeat(151), "é".repeat(150)],
  ])("%j → %j", (input, expected) => {
    expect(metaDescription(input)).toBe(expected);
  });
});
