// Security suite, "XSS" (issue 8): the premium demo persona puts script payloads in every text
// field it can edit (profile tab and a certified deal); every page that shows them is opened in
// Chromium and nothing may run. The JSON-LD block must stay one valid JSON document, and the
// LinkedIn link only ever points to http(s). The persona's fields are put back afterwards.
import { expect, type Browser, type Page } from "@playwright/test";
import { test } from "./typography-scan";
import { E2E_SEED, signIn } from "./fixtures";

const DEMO_PASSWORD = "demo-transmission-2026";
const demoEmail = (kind: "premium" | "fondateur") => `${kind}+s${E2E_SEED.seed}@demo.reseau-transmission.fr`;

const SCRIPT = "<script>window.__xss=1</script>";
const CLOSE_SCRIPT = "</script><script>window.__xss=1</script>";
const COMMENT = "<!--";
const IMG = '<img src=x onerror="window.__xss=1">';
const JS_URL = "javascript:window.__xss=1";
const ALL = [SCRIPT, CLOSE_SCRIPT, COMMENT, IMG, JS_URL].join(" ");

type TextFields = { city: string; address: string; detailed: string; internal: string };

const LABELS = {
  city: "Ville",
  address: "Adresse complète",
  detailed: "Présentation détaillée (profil public)",
  internal: "Présentation interne (réservée aux confrères)",
} as const satisfies Record<keyof TextFields, string>;

async function signedIn(browser: Browser, kind: "premium" | "fondateur"): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, demoEmail(kind), DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  return page;
}

async function openProfileTab(page: Page) {
  await page.goto("/dashboard/profil");
  await expect(page.getByRole("heading", { level: 2, name: "Mon Profil Professionnel" })).toBeVisible();
}

async function readFields(page: Page): Promise<TextFields> {
  const value = (key: keyof TextFields) => page.getByLabel(LABELS[key], { exact: true }).inputValue();
  return { city: await value("city"), address: await value("address"), detailed: await value("detailed"), internal: await value("internal") };
}

async function saveFields(page: Page, fields: TextFields) {
  for (const key of Object.keys(LABELS) as (keyof TextFields)[]) await page.getByLabel(LABELS[key], { exact: true }).fill(fields[key]);
  await page.getByRole("button", { name: "Sauvegarder" }).click();
  await expect(page.getByText("Profil mis à jour")).toBeVisible();
}

/** Nothing ran: the payloads all set window.__xss. Waits for late image errors first. */
async function expectNothingRan(page: Page, where: string) {
  await page.waitForLoadState("load");
  await page.waitForTimeout(500);
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss), where).toBeUndefined();
  expect(await page.locator("img[src='x']").count(), `${where}: injected <img>`).toBe(0);
}

test("script payloads in member-editable fields never run, in any page that shows them", async ({ browser }) => {
  test.slow();
  const dialogs: string[] = [];
  const owner = await signedIn(browser, "premium");
  owner.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await openProfileTab(owner);
  const original = await readFields(owner);
  const year = new Date().getFullYear() - 1;
  const dealLabel = `XSS ${Date.now()} ${CLOSE_SCRIPT}`;
  let dealAdded = false;

  try {
    // 1. The payloads, through the UI.
    await saveFields(owner, { city: IMG, address: ALL, detailed: ALL, internal: ALL });
    const references = owner.getByRole("region", { name: "Références M&A certifiées" });
    await references.getByLabel("Année").selectOption(String(year));
    await references.getByLabel("Secteur", { exact: true }).selectOption("C");
    await references.getByLabel("Transaction (acquéreur / cédant)").fill(dealLabel);
    await references.getByLabel("Description (facultatif)").fill(ALL);
    await references.getByRole("button", { name: "Ajouter la référence" }).click();
    await expect(owner.getByText("Référence ajoutée")).toBeVisible();
    dealAdded = true;

    // 2. The editor itself, reloaded: values shown as typed, nothing ran.
    await owner.reload();
    await expect(owner.getByLabel("Ville", { exact: true })).toHaveValue(IMG);
    await expect(owner.getByLabel(LABELS.detailed, { exact: true })).toHaveValue(ALL);
    await expect(references.getByRole("listitem").filter({ hasText: dealLabel })).toBeVisible();
    await expectNothingRan(owner, "profile tab");

    // 3. The public directory card (anonymous visitor).
    const visitor = await (await browser.newContext()).newPage();
    visitor.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await visitor.goto(`/annuaire?q=${encodeURIComponent(E2E_SEED.premium.name)}`);
    await expect(visitor.getByText(IMG).first()).toBeVisible();
    await expectNothingRan(visitor, "public directory");

    // 4. The public profile page and its JSON-LD.
    await visitor.getByRole("link", { name: `Voir le profil de ${E2E_SEED.premium.name}` }).first().click();
    await expect(visitor).toHaveURL(/\/consultant\//);
    await expect(visitor.getByRole("heading", { level: 1, name: E2E_SEED.premium.name })).toBeVisible();
    await expect(visitor.getByText(SCRIPT, { exact: false }).first()).toBeVisible();
    await expectNothingRan(visitor, "public profile");
    const jsonLd = visitor.locator('script[type="application/ld+json"]');
    await expect(jsonLd).toHaveCount(1);
    const parsed = JSON.parse((await jsonLd.textContent()) ?? "") as Record<string, unknown>;
    expect(parsed["@type"]).toBeTruthy();
    // The member's text is in the JSON-LD, as data.
    expect((parsed.address as { addressLocality?: string } | undefined)?.addressLocality).toBe(IMG);
    for (const href of await visitor.locator("a[href]").evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href))) {
      expect(href, "no javascript: link").not.toMatch(/^\s*javascript:/i);
    }
    const linkedin = visitor.getByRole("link", { name: /linkedin/i });
    for (const href of await linkedin.evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href))) expect(href).toMatch(/^https?:\/\//);
    // Reloaded without client-side navigation: the server-rendered HTML alone.
    await visitor.reload();
    await expectNothingRan(visitor, "public profile (server-rendered)");
    await expect(visitor.locator('script[type="application/ld+json"]')).toHaveCount(1);

    // 5. The internal directory card, seen by another member.
    const peer = await signedIn(browser, "fondateur");
    peer.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await peer.goto(`/dashboard/annuaire?q=${encodeURIComponent(E2E_SEED.premium.name)}`);
    await expect(peer.getByText(E2E_SEED.premium.name).first()).toBeVisible();
    await expect(peer.getByText(SCRIPT, { exact: false }).first()).toBeVisible();
    await expectNothingRan(peer, "internal directory");

    expect(dialogs).toEqual([]);
  } finally {
    // Put the persona back as it was for the other specs.
    await openProfileTab(owner);
    await saveFields(owner, original);
    if (dealAdded) {
      const references = owner.getByRole("region", { name: "Références M&A certifiées" });
      await references.getByRole("button", { name: `Supprimer la référence ${dealLabel} (${year})` }).click();
      const dialog = owner.getByRole("dialog", { name: "Supprimer la référence" });
      await dialog.getByRole("button", { name: "Supprimer" }).click();
      await expect(owner.getByText("Référence supprimée")).toBeVisible();
    }
  }
});
