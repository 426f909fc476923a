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
    const run = page
      .evaluate(readPageTexts)
      .then((texts) => {
        // Lines: the line-start rule needs the page's own line breaks.
        this.check(texts.url, texts.body, "body");
        for (const h of texts.headings) this.check(texts.url, h, "heading");
        for (const a of texts.attributes) this.check(texts.url, a, "attribute");
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

  watchContext(context: BrowserContext) {
    if (this.watched.has(context)) return;
    this.watched.add(context);
    for (const page of context.pages()) this.watchPage(page);
    context.on("page", (page) => this.watchPage(page));
  }

  /** Scans every open page of the browser one last time and waits for the scans under way. */
  async finish(browser: Browser) {
    await Promise.all(browser.contexts().flatMap((c) => c.pages().map((p) => this.scan(p))));
    await Promise.all([...this.pending]);
  }
}

/**
 * Issue 27 §7: the browser suite fails when a page it renders breaks the French typography
 * rules of app/lib/typography.ts, naming the page and the offending snippet.
 */
export const test = base.extend<{ typographyScan: TypographyScan }>({
  typographyScan: [
    async ({ browser, context, baseURL }, use, testInfo) => {
      const scan = new TypographyScan(baseURL ?? "http://localhost");
      scan.watchContext(context);
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...args: Parameters<Browser["newContext"]>) => {
        const created = await newContext(...args);
        scan.watchContext(created);
        return created;
      };
      try {
        await use(scan);
        await scan.finish(browser);
      } finally {
        browser.newContext = newContext;
      }
      if (scan.violations.length > 0 && testInfo.status === "passed") {
        throw new Error(`French typography (app/lib/typography.ts) broken on rendered pages:\n${[...new Set(scan.violations)].join("\n")}`);
      }
    },
    { auto: true },
  ],
});
