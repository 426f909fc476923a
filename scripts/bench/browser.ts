// Click → new content painted, in Chromium: a member signed in, on /dashboard, follows ten links
// of the member space the way a browser does after its first document (React Router's client
// navigation), and the time from the click to the frame painted after the navigation settled is
// taken in the page itself.
import { existsSync } from "node:fs";
import { chromium, type Page } from "playwright";
import { percentile } from "./load";
import { signInCookie } from "./member";
import { fileConversation, type SessionMember } from "./sessions";

export type BrowserNavigation = { label: string; path: string; clicked: boolean; times: number[]; p50: number; p95: number };
export type BrowserResults = { runs: number; navigations: BrowserNavigation[]; all: { p50: number; p95: number } };

const CHROMIUM = process.env.CHROMIUM_PATH ?? ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));

/** The ten navigations, each from the page the previous one reached. */
export function browserNavigations(m: Pick<SessionMember, "fileId" | "mandateId" | "commonWord">): Array<{ label: string; path: string }> {
  const file = `/dashboard/dossiers/${m.fileId}`;
  return [
    { label: "→ /dashboard/annuaire", path: "/dashboard/annuaire" },
    { label: "→ /dashboard/annuaire?q=…", path: `/dashboard/annuaire?q=${encodeURIComponent(m.commonWord)}` },
    { label: "→ /mandates", path: "/mandates" },
    { label: "→ /mandates?matching=…", path: `/mandates?matching=${m.mandateId}` },
    { label: "→ /dashboard/dossiers", path: "/dashboard/dossiers" },
    { label: "→ /dashboard/dossiers/{id}", path: file },
    { label: "→ /dashboard/dossiers/{id}/documents", path: `${file}/documents` },
    { label: "→ /dashboard/messages", path: "/dashboard/messages" },
    { label: "→ /dashboard/messages/{conversation}", path: fileConversation(m.fileId) },
    { label: "→ /dashboard", path: "/dashboard" },
  ];
}

/**
 * Clicks the page's link to `target` (or, when the page shows none, asks React Router's router to
 * go there, the same client navigation without the click), waits for the navigation to settle,
 * then for the next two animation frames (the new content painted); returns the milliseconds.
 */
// Plain JavaScript run in the page: a function compiled here would carry the TypeScript
// loader's helpers, which the page does not have.
const CLICK_TO_PAINT = `async (to) => {
  const router = window.__reactRouterDataRouter;
  const link = [...document.querySelectorAll("a[href]")].find((a) => a.getAttribute("href") === to && a.offsetParent !== null);
  const t0 = performance.now();
  if (link) link.click();
  else void router.navigate(to);
  await new Promise((resolve) => {
    const check = () => {
      const { location, navigation } = router.state;
      if (navigation.state === "idle" && location.pathname + location.search === to) resolve();
      else setTimeout(check, 1);
    };
    check();
  });
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return { ms: performance.now() - t0, clicked: Boolean(link) };
}`;

/**
 * Clicks the page's link to `target` (or, when the page shows none, asks React Router's router to
 * go there, the same client navigation without the click), waits for the navigation to settle,
 * then for the next two animation frames (the new content painted); returns the milliseconds.
 */
async function clickToPaint(page: Page, target: string): Promise<{ ms: number; clicked: boolean }> {
  return page.evaluate(`(${CLICK_TO_PAINT})(${JSON.stringify(target)})`) as Promise<{ ms: number; clicked: boolean }>;
}

export async function measureBrowserNavigations(baseUrl: string, member: SessionMember, runs = 5): Promise<BrowserResults> {
  if (!CHROMIUM) throw new Error("Chromium introuvable (/usr/bin/chromium ou CHROMIUM_PATH).");
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    const context = await browser.newContext({ locale: "fr-FR", timezoneId: "Europe/Paris", viewport: { width: 1280, height: 900 } });
    const cookie = await signInCookie(baseUrl, member.email);
    const url = new URL(baseUrl);
    await context.addCookies(cookie.split("; ").map((c) => ({ name: c.slice(0, c.indexOf("=")), value: c.slice(c.indexOf("=") + 1), domain: url.hostname, path: "/" })));
    const page = await context.newPage();
    const navigations = browserNavigations(member);
    const times = navigations.map(() => [] as number[]);
    const clicked = navigations.map(() => true);
    // One pass unmeasured (code chunks fetched and compiled once, as for a member after a first visit).
    for (let run = 0; run <= runs; run++) {
      await page.goto(`${baseUrl}/dashboard`, { waitUntil: "load" });
      await page.waitForFunction('"__reactRouterDataRouter" in window && document.readyState === "complete"');
      await page.waitForLoadState("networkidle");
      for (const [i, n] of navigations.entries()) {
        const r = await clickToPaint(page, n.path);
        if (run > 0) times[i]!.push(r.ms);
        clicked[i] = clicked[i]! && r.clicked;
      }
    }
    const all = times.flat().sort((a, b) => a - b);
    return {
      runs,
      navigations: navigations.map((n, i) => {
        const sorted = [...times[i]!].sort((a, b) => a - b);
        return { ...n, clicked: clicked[i]!, times: sorted, p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
      }),
      all: { p50: percentile(all, 50), p95: percentile(all, 95) },
    };
  } finally {
    await browser.close();
  }
}
