import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect } from "@playwright/test";
import { test } from "./typography-scan";

// The server HTML of every public page passes the W3C Nu HTML Checker (npm vnu-jar, run on the
// machine's Java) with no error. The pages are fetched as a visitor and checked in one run.

// Playwright runs from the project root.
const vnuJar = path.resolve("node_modules/vnu-jar/build/dist/vnu.jar");

const PUBLIC_PAGES = [
  "/",
  "/annuaire",
  "/annuaire?q=conseil&page=2",
  "/auth",
  "/auth?mode=inscription",
  "/auth?lien=expire",
  "/auth/mot-de-passe-oublie",
  "/auth/nouveau-mot-de-passe?token=invalide",
  "/join-founder",
  "/confirm-recommendation",
  "/concept",
  "/tiers-confiance",
  "/mentions-legales",
  "/cgu",
  "/politique-confidentialite",
  "/contact",
  "/faq",
  "/support",
  "/aide",
  "/cookies",
  "/desabonnement?token=invalide",
  "/page-qui-n-existe-pas",
];

type VnuMessage = { type: string; subType?: string; url: string; lastLine?: number; message: string; extract?: string };

test("every public page is valid HTML (W3C Nu HTML Checker)", async ({ request }) => {
  test.slow();
  const dir = mkdtempSync(path.join(os.tmpdir(), "rt-vnu-"));
  const directory = await (await request.get("/annuaire")).text();
  const profile = directory.match(/href="(\/consultant\/[^"]+)"/)?.[1];
  expect(profile, "a public profile in the directory").toBeTruthy();
  const pages = [...PUBLIC_PAGES, profile!];
  const files: Record<string, string> = {};
  for (const [i, url] of pages.entries()) {
    const res = await request.get(url);
    expect(res.status(), url).toBeLessThan(500);
    const file = path.join(dir, `page-${i}.html`);
    writeFileSync(file, await res.text());
    files[`file:${file}`] = url;
  }
  const { stderr } = await promisify(execFile)("java", ["-jar", vnuJar, "--errors-only", "--format", "json", ...Object.keys(files).map((f) => f.slice(5))], {
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { stdout: string; stderr: string }) => error);
  const messages = (JSON.parse(stderr) as { messages: VnuMessage[] }).messages.filter((m) => m.type === "error" || m.subType === "fatal");
  const errors = messages.map((m) => `${files[m.url] ?? m.url}:${m.lastLine ?? "?"} ${m.message}${m.extract ? ` — ${m.extract.trim().slice(0, 80)}` : ""}`);
  expect(errors).toEqual([]);
});
