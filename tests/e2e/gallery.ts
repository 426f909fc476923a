import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test, type Page } from "@playwright/test";

// Issue 30 §5: a screenshot of every page × role at 1280 and 360 px, for review, with an HTML
// index (test-results/gallery/index.html). Opt-in (E2E_GALLERY=1, `npm run test:e2e:gallery`):
// decision 070 has the cost measured.

export const GALLERY = process.env.E2E_GALLERY === "1";

const WIDTHS = [1280, 360] as const;

type Entry = { name: string; url: string; role: string; shots: Array<{ width: number; file: string }> };

function galleryDir() {
  const dir = path.join(test.info().project.outputDir, "gallery");
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Photographs the page (full height) at each width, then puts the page back at the width it had.
 * `onWidth` runs at each width before the photograph (the design checks at that width).
 */
export async function photograph(page: Page, name: string, role: string, onWidth?: () => Promise<unknown>) {
  if (!GALLERY) return;
  const dir = galleryDir();
  const before = page.viewportSize();
  const entry: Entry = { name, url: new URL(page.url()).pathname + new URL(page.url()).search, role, shots: [] };
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 360 ? 740 : 800 });
    await onWidth?.();
    const file = `${name}-${width}.png`;
    await page.screenshot({ path: path.join(dir, file), fullPage: true, animations: "disabled" });
    entry.shots.push({ width, file });
  }
  if (before) await page.setViewportSize(before);
  writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(entry));
}

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

/** Rewrites index.html from every page photographed so far (each test calls it when it ends). */
export function writeGalleryIndex() {
  if (!GALLERY) return;
  const dir = galleryDir();
  const entries = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), "utf8")) as Entry)
    .sort((a, b) => a.role.localeCompare(b.role) || a.name.localeCompare(b.name));
  const rows = entries
    .map(
      (e) =>
        `<tr><td>${escape(e.role)}</td><td>${escape(e.name)}<br><code>${escape(e.url)}</code></td>${e.shots
          .map((s) => `<td><a href="${escape(s.file)}"><img loading="lazy" src="${escape(s.file)}" alt="${escape(e.name)} à ${s.width} px" width="${s.width === 360 ? 120 : 320}"></a></td>`)
          .join("")}</tr>`,
    )
    .join("\n");
  writeFileSync(
    path.join(dir, "index.html"),
    `<!doctype html><html lang="fr"><meta charset="utf-8"><title>Galerie des pages (${entries.length})</title>
<style>body{font:14px system-ui;margin:24px}table{border-collapse:collapse}td{border-top:1px solid #ddd;padding:8px;vertical-align:top}img{border:1px solid #ccc;max-height:480px;object-fit:cover;object-position:top}</style>
<h1>Galerie des pages : ${entries.length} pages × ${WIDTHS.join(" et ")} px</h1>
<table><thead><tr><th>Rôle</th><th>Page</th>${WIDTHS.map((w) => `<th>${w} px</th>`).join("")}</tr></thead><tbody>
${rows}
</tbody></table></html>
`,
  );
}
