// Structured data and meta helpers for public pages.

/**
 * JSON for a <script type="application/ld+json"> block. Escapes <, >, &, U+2028 and U+2029 so
 * that no member-written text (e.g. "</script>" or "<!--") can leave the script element.
 */
export function serializeJsonLd(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** The first `max` characters (spec §9: 150), whitespace squeezed, for meta descriptions. */
export function metaDescription(text: string | null | undefined, max = 150): string {
  const clean = (text ?? "").replace(/\s+/g, " ").trim();
  return clean.length <= max ? clean : clean.slice(0, max).trimEnd();
}
