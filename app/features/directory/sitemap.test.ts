import { describe, expect, it } from "vitest";
import { robotsTxt, SITEMAP_MAX_URLS, SITEMAP_PUBLIC_PATHS, sitemapEntries, sitemapXml, xmlEscape } from "./sitemap";

const ID = "3f2a8c1e-9b4d-4e7a-8f01-23456789abcd";

describe("sitemap", () => {
  it("lists the public pages, then each profile with its slug and lastmod", () => {
    const entries = sitemapEntries("https://reseau.example.fr/", [
      { id: ID, firstName: "Élodie", lastName: "Dupré", profession: "notaire", updatedAt: new Date("2026-03-01T10:00:00Z") },
    ]);
    expect(entries.slice(0, 3).map((e) => e.loc)).toEqual([
      "https://reseau.example.fr/",
      "https://reseau.example.fr/annuaire",
      "https://reseau.example.fr/concept",
    ]);
    expect(entries).toHaveLength(SITEMAP_PUBLIC_PATHS.length + 1);
    expect(entries.at(-1)).toEqual({
      loc: `https://reseau.example.fr/consultant/elodie-dupre-notaire-${ID}`,
      lastmod: "2026-03-01T10:00:00.000Z",
    });
  });

  it("caps the list at 50 000 URLs", () => {
    const many = Array.from({ length: SITEMAP_MAX_URLS + 10 }, () => ({
      id: ID,
      firstName: "A",
      lastName: "B",
      profession: "notaire",
      updatedAt: null,
    }));
    expect(sitemapEntries("http://localhost:3000", many)).toHaveLength(SITEMAP_MAX_URLS);
  });

  it("escapes XML", () => {
    expect(xmlEscape(`a&b<c>"d'`)).toBe("a&amp;b&lt;c&gt;&quot;d&apos;");
    const xml = sitemapXml([{ loc: "http://x.fr/?a=1&b=<2>" }, { loc: "http://x.fr/p", lastmod: "2026-01-01T00:00:00.000Z" }]);
    expect(xml).toContain("<loc>http://x.fr/?a=1&amp;b=&lt;2&gt;</loc>");
    expect(xml).toContain("<url><loc>http://x.fr/p</loc><lastmod>2026-01-01T00:00:00.000Z</lastmod></url>");
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')).toBe(true);
  });
});

describe("robots.txt", () => {
  it("allows the site, keeps crawlers out of member areas and points to the sitemap", () => {
    const txt = robotsTxt("https://reseau.example.fr");
    expect(txt).toContain("User-agent: *\nAllow: /\n");
    for (const path of ["/dashboard", "/admin", "/mandates", "/onboarding", "/api/", "/dev/", "/auth"]) {
      expect(txt).toContain(`Disallow: ${path}\n`);
    }
    expect(txt).toContain("Sitemap: https://reseau.example.fr/sitemap.xml\n");
  });
});
