// What a PDF standard font can draw of a line of text (the stamp, the agreement's text PDFs).

/**
 * Text that a font can draw: characters it lacks are replaced by their letter without accent
 * when it has that ("Ł" has none: "?"), so that a name never makes the watermark fail.
 */
export function drawableText(text: string, has: (codePoint: number) => boolean): string {
  let out = "";
  for (const ch of text.normalize("NFC")) {
    const code = ch.codePointAt(0) ?? 0;
    if (has(code)) {
      out += ch;
      continue;
    }
    if (/\s/u.test(ch)) {
      out += " ";
      continue;
    }
    const base = ch.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
    out += base && [...base].every((c) => has(c.codePointAt(0) ?? 0)) ? base : "?";
  }
  return out;
}
