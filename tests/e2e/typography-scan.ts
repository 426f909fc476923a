import { test as base, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { sentenceCaseViolations, typographyViolations } from "../../app/lib/typography";

/** What a page shows a reader: its visible text, title, headings and the texts of attributes. */
type PageTexts = { url: string; body: string; headings: string[]; attributes: string[] };

// Runs in the page. Code samples and elements marked data-typography="skip" are left out (the
// text of members, e.g. a message, is theirs to type).
function readPageTexts(): PageTexts {
  const skipped = "code, pre, kbd, samp, [data-typography='skip']";
  let body = document.body?.innerText ?? "";
  for (const el of Array.from(document.querySelectorAll<HTMLElement>(skipped))) {
    const text = el.innerText.trim();
    if (text) body = body.split(text).join(" ");
  }
  // Visually hidden text (a screen reader's « : » after a label) gets a line of its own in
  // innerText though nobody sees it start a line: join it to the line before, in the body and
  // in the headings.
  const hiddenSeparators = Array.from(document.querySelectorAll<HTMLElement>(".sr-only"))
    .map((el) => el.innerText.replace(/[ \n]+$/, ""))
    .filter((text) => /^[\s\u00a0\u202f]*[;:!?»]/.test(text));
  const joinHidden = (text: string) =>
    hiddenSeparators.reduce((t, sep) => t.replace(new RegExp(`\\n[ \\t]*(${sep.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")})`, "g"), "$1"), text);
  body = joinHidden(body);
  const visible = (el: Element) => !el.closest(skipped) && (el as HTMLElement).checkVisibility?.() !== false;
  const headings = Array.from(document.querySelectorAll("h1, h2, h3, h4, h5, h6, [role='heading']"))
    .filter(visible)
    .map((h) => joinHidden((h as HTMLElement).innerText).trim())
    .filter(Boolean);
  const attributes = Array.from(document.querySelectorAll("[aria-label], [placeholder], [title], img[alt]"))
    .filter((el) => !el.closest(skipped))
    .flatMap((el) => ["aria-label", "placeholder", "title", "alt"].map((a) => el.getAttribute(a) ?? ""))
    .filter(Boolean);
  return { url: location.pathname + location.search, body, headings: [document.title, ...headings], attributes };
}

// Runs in the page, beside readPageTexts. Issue 30 §5: the design system's rules
// that a DOM shows cheaply, at the page's current width.
function layoutViolations(): string[] {
  // The development tools (mailbox, style page) are not the product.
  if (location.pathname.startsWith("/dev/")) return [];
  // A document still streaming has its frame but not yet its main content: its load event scans it again.
  if (document.readyState === "loading") return [];
  const out: string[] = [];
  const shown = (el: Element) => (el as HTMLElement).checkVisibility?.() !== false && el.getClientRects().length > 0;
  // One primary button per view; an open dialog is its own view (docs/design-system.md).
  const dialog = Array.from(document.querySelectorAll("[role='dialog'], [role='alertdialog'], dialog[open]")).filter(shown).pop();
  const view = dialog ?? document.body;
  const primaries = Array.from(view.querySelectorAll("[data-variant='default']")).filter(shown);
  if (primaries.length > 1) {
    const names = primaries.map((el) => JSON.stringify((el as HTMLElement).innerText.trim().slice(0, 40)));
    out.push(`[one-primary] ${primaries.length} primary buttons in one view: ${names.join(", ")}`);
  }
  // The frames: the application's pages in their frame, without the marketing footer.
  const shell = document.querySelector("[data-shell]");
  // The offline page the service worker serves in place of any page is not in the frame.
  const offline = document.title === "Vous êtes hors ligne";
  const appPath = !offline && /^\/(dashboard|parametres|admin|onboarding|mandates|premium)(\/|$)/.test(location.pathname);
  if (appPath && !shell) out.push("[frame] an application page outside the application's frame");
  if (shell) {
    if (document.querySelector("[data-slot='site-footer']")) out.push("[frame] the marketing footer inside the application");
    const landmarks: Array<[string, string]> = [
      ["header", "the top bar (banner)"],
      ["main#contenu", "the main landmark"],
      ["[data-slot='app-footer']", "the one-line footer"],
    ];
    for (const [selector, what] of landmarks) if (!shell.querySelector(selector)) out.push(`[landmarks] no ${what}`);
    if (document.querySelectorAll("main").length !== 1) out.push(`[landmarks] ${document.querySelectorAll("main").length} main landmarks`);
    const titles = Array.from(document.querySelectorAll("main h1")).filter(shown);
    if (titles.length !== 1) out.push(`[landmarks] ${titles.length} page titles (h1) in main`);
  }
  // No word cut across two lines (an e-mail, « confidentie|ls »): a break may follow a space, a
  // hyphen, a slash or an apostrophe only. Text typed by members (data-typography="skip") is left out too.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const cut: string[] = [];
  for (let node = walker.nextNode(); node && cut.length < 5; node = walker.nextNode()) {
    const text = node.nodeValue ?? "";
    if (text.trim().length < 4) continue;
    const parent = node.parentElement;
    if (!parent || parent.closest("code, pre, script, style, [data-typography='skip'], .sr-only") || !shown(parent)) continue;
    for (const word of text.matchAll(/[^\s\-\u2010\u2011/’']{4,}/g)) {
      // Words and e-mail addresses only: a SHA-256 or a string of symbols (a script payload a
      // member typed) is meant to break anywhere.
      if (!/^[\p{L}\p{N}.@_«»,;:!?()]+$/u.test(word[0]) || /^[0-9a-f]{32,}$/i.test(word[0])) continue;
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const tops = new Set(Array.from(range.getClientRects()).filter((r) => r.width > 3).map((r) => Math.round(r.bottom)));
      if (tops.size > 1) {
        cut.push(JSON.stringify(word[0]));
        break;
      }
    }
  }
  if (cut.length) out.push(`[word-break] a word cut across two lines: ${cut.join(", ")}`);
  return out;
}

/**
 * Collects the typography violations of every page the browser suite renders: on each load, on
 * each client-side navigation, and once more when the test ends. Contexts the test opens itself
 * (browser.newContext) are watched too.
 */
export class TypographyScan {
  private readonly seen = new Set<string>();
  readonly violations: string[] = [];
  private readonly watched = new WeakSet<object>();
  private readonly pending = new Set<Promise<void>>();
  private readonly origin: string;

  constructor(baseURL: string) {
    this.origin = new URL(baseURL).origin;
  }

  private check(url: string, text: string, kind: "body" | "heading" | "attribute") {
    for (const line of text.split("\n")) {
      const key = `${kind}\u0000${line}`;
      if (!line.trim() || this.seen.has(key)) continue;
      this.seen.add(key);
      const found = [...typographyViolations(line), ...(kind === "heading" ? sentenceCaseViolations(line) : [])];
      for (const v of found) this.violations.push(`${url} [${v.rule}] ${v.message}: ${JSON.stringify(v.snippet)}`);
    }
  }

  /** Reads the page now (ignored while it navigates or closes). */
  scan(page: Page): Promise<void> {
    if (page.isClosed() || !page.url().startsWith(this.origin)) return Promise.resolve();
    const run = Promise.all([page.evaluate(readPageTexts), page.evaluate(layoutViolations)])
      .then(async ([texts, layout]) => {
        // A client navigation changes the address before React commits the new page: on a loaded
        // machine the scan can read the old page under the new address. A missing frame is
        // reported only when it is still missing a moment later, at the same address.
        if (layout.some((v) => v.startsWith("[frame]"))) {
          await new Promise((resolve) => setTimeout(resolve, 2_000));
          const again = await page.evaluate(() => location.pathname + location.search);
          layout = again === texts.url ? await page.evaluate(layoutViolations) : layout.filter((v) => !v.startsWith("[frame]"));
        }
        // Lines: the line-start rule needs the page's own line breaks.
        this.check(texts.url, texts.body, "body");
        for (const h of texts.headings) this.check(texts.url, h, "heading");
        for (const a of texts.attributes) this.check(texts.url, a, "attribute");
        for (const v of layout) this.violations.push(`${texts.url} ${v}`);
      })
      .catch(() => {});
    this.pending.add(run);
    void run.finally(() => this.pending.delete(run));
    return run;
  }

  watchPage(page: Page) {
    if (this.watched.has(page)) return;
    this.watched.add(page);
    page.on("load", () => void this.scan(page));
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) setTimeout(() => void this.scan(page), 300);
    });
  }

  async watchContext(context: BrowserContext) {
    if (this.watched.has(context)) return;
    this.watched.add(context);
    await context.addInitScript(deferClicksUntilHydrated);
    for (const page of context.pages()) this.watchPage(page);
    context.on("page", (page) => this.watchPage(page));
  }

  /** Scans every open page of the browser one last time and waits for the scans under way. */
  async finish(browser: Browser) {
    await Promise.all(browser.contexts().flatMap((c) => c.pages().map((p) => this.scan(p))));
    await Promise.all([...this.pending]);
  }
}

// Runs in every page before its scripts. A click on a page of the app that is shown but not yet
// hydrated waits for hydration (app/root.tsx marks <html data-hydrated>), as a person waits for a
// page to respond: on a loaded host, a link's native navigation started just before React Router
// sets up its history was seen to be dropped, the page staying where it was.
function deferClicksUntilHydrated() {
  const root = document.documentElement;
  const isApp = () => "__reactRouterContext" in window;
  document.addEventListener(
    "click",
    (event) => {
      if (!event.isTrusted || !isApp() || root.dataset.hydrated) return;
      const target = event.target instanceof Element ? event.target.closest<HTMLElement>("a, button, input, label, summary, select, [role='button']") : null;
      if (!target) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      const replay = new MutationObserver(() => {
        if (!root.dataset.hydrated) return;
        replay.disconnect();
        target.click();
      });
      replay.observe(root, { attributes: true, attributeFilter: ["data-hydrated"] });
    },
    true,
  );
}

// The scan of the test under way (a worker runs one test at a time), for helpers without fixtures.
let current: TypographyScan | null = null;

/** Reads the page now, e.g. after a change of width (the scan runs on loads and navigations). */
export function scanNow(page: Page): Promise<void> {
  return current?.scan(page) ?? Promise.resolve();
}

/**
 * Issue 27 §7: the browser suite fails when a page it renders breaks the French typography
 * rules of app/lib/typography.ts, naming the page and the offending snippet.
 */
export const test = base.extend<{ typographyScan: TypographyScan }>({
  typographyScan: [
    async ({ browser, context, baseURL }, use, testInfo) => {
      const scan = new TypographyScan(baseURL ?? "http://localhost");
      current = scan;
      await scan.watchContext(context);
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...args: Parameters<Browser["newContext"]>) => {
        const created = await newContext(...args);
        await scan.watchContext(created);
        return created;
      };
      try {
        await use(scan);
        await scan.finish(browser);
      } finally {
        browser.newContext = newContext;
        current = null;
      }
      if (scan.violations.length > 0 && testInfo.status === "passed") {
        throw new Error(`French typography (app/lib/typography.ts) or the design system's rules broken on rendered pages:\n${[...new Set(scan.violations)].join("\n")}`);
      }
    },
    { auto: true },
  ],
});
