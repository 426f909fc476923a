// /sitemap.xml and /robots.txt (pure): the public pages and every validated public profile.
import { profileSlug } from "~/lib/slug";

/** The sitemap protocol's limit for one file. */
export const SITEMAP_MAX_URLS = 50_000;

/** Public pages of spec §2, in its order (member and admin screens are not listed). */
export const SITEMAP_PUBLIC_PATHS = [
  "/",
  "/annuaire",
  "/concept",
  "/tiers-confiance",
  "/faq",
  "/support",
  "/aide",
  "/contact",
  "/join-founder",
  "/mentions-legales",
  "/cgu",
  "/politique-confidentialite",
  "/cookies",
] as const;

/** Areas crawlers have no business in (member screens, APIs, the local mailbox, sign-in). */
export const ROBOTS_DISALLOWED = [
  "/dashboard",
  "/admin",
  "/mandates",
  "/onboarding",
  "/premium",
  "/parametres",
  "/confirm-recommendation",
  "/paiement-test/",
  "/api/",
  "/dev/",
  "/auth",
] as const;

export type SitemapProfile = {
  id: string;
  firstName: string;
  lastName: string;
  profession: string;
  updatedAt: Date | string | null;
};

export type SitemapEntry = { loc: string; lastmod?: string };

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

export function xmlEscape(value: string): string {
  return value.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);
}

function isoDate(value: Date | string | null): string | undefined {
  if (!value) return undefined;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** Absolute URLs: the public pages first, then the profiles, capped at SITEMAP_MAX_URLS. */
export function sitemapEntries(origin: string, profiles: readonly SitemapProfile[]): SitemapEntry[] {
  const base = origin.replace(/\/+$/, "");
  const pages: SitemapEntry[] = SITEMAP_PUBLIC_PATHS.map((p) => ({ loc: p === "/" ? `${base}/` : `${base}${p}` }));
  const people: SitemapEntry[] = profiles.map((p) => ({
    loc: `${base}/consultant/${profileSlug(p)}`,
    lastmod: isoDate(p.updatedAt),
  }));
  return [...pages, ...people].slice(0, SITEMAP_MAX_URLS);
}

export function sitemapXml(entries: readonly SitemapEntry[]): string {
  const urls = entries.map(
    (e) =>
      `  <url><loc>${xmlEscape(e.loc)}</loc>${e.lastmod ? `<lastmod>${xmlEscape(e.lastmod)}</lastmod>` : ""}</url>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
}

export function robotsTxt(origin: string): string {
  const base = origin.replace(/\/+$/, "");
  return [
    "User-agent: *",
    "Allow: /",
    ...ROBOTS_DISALLOWED.map((p) => `Disallow: ${p}`),
    "",
    `Sitemap: ${base}/sitemap.xml`,
    "",
  ].join("\n");
}
