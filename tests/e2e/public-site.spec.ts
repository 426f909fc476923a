// The public site: directory, public profiles (SEO, contact dialog), FAQ, contact page, sitemap,
// accessibility. The directory shows the demo members seeded before the server starts
// (E2E_SEED in fixtures.ts).
import { expect, type Page } from "@playwright/test";
import { test } from "./typography-scan";
import { E2E_SEED, expectNoAxeViolations, waitForMail } from "./fixtures";

const CONTACT_EMAIL = "contact@reseau-transmission.local";
const PAGE_SIZE = 24;

const cardLinks = (page: Page) => page.getByRole("link", { name: /^Voir le profil de / });
const resultCount = (page: Page) => page.getByTestId("result-count");
const searchBox = (page: Page) => page.getByRole("searchbox", { name: "Recherche" });
/** A field of the /contact form, by its accessible name (the '*' mark is aria-hidden). */
const field = (page: Page, name: string) => page.getByRole("main").getByRole("textbox", { name, exact: true });

async function totalCount(page: Page): Promise<number> {
  // Wait for the navigation to settle ('Chargement...' while the loader runs). Read and parse in
  // one retried step: a second revalidation may show 'Chargement...' again between two reads.
  let count = Number.NaN;
  await expect
    .poll(async () => {
      const text = (await resultCount(page).textContent()) ?? "";
      const match = text.replace(/\s/g, "").match(/^(\d+)professionnels?trouvés?$/);
      count = match ? Number(match[1]) : Number.NaN;
      return Number.isNaN(count) ? `result count "${text}"` : "ok";
    })
    .toBe("ok");
  return count;
}

/** Full name of the n-th card (its heading link). */
async function cardName(page: Page, index = 0): Promise<string> {
  const label = (await cardLinks(page).nth(index).getAttribute("aria-label")) ?? "";
  return label.replace(/^Voir le profil de /, "");
}

/** Slug of a seeded profile, from the directory. */
async function profilePath(page: Page, query = ""): Promise<string> {
  await page.goto(`/annuaire${query}`);
  const href = await cardLinks(page).first().getAttribute("href");
  expect(href).toMatch(/^\/consultant\/[a-z0-9-]+$/);
  return href!;
}

test.describe("directory /annuaire", () => {
  test("lists the validated members with a French plural count", async ({ page }) => {
    await page.goto("/annuaire");
    await expect(page.getByRole("heading", { level: 1, name: "Annuaire des professionnels agréés" })).toBeVisible();
    await expect(resultCount(page)).toHaveText(/^\d+\s?\d* professionnels trouvés$/);
    const total = await totalCount(page);
    expect(total).toBeGreaterThanOrEqual(E2E_SEED.members);
    await expect(cardLinks(page)).toHaveCount(Math.min(total, PAGE_SIZE));
    // Several pages: the next one is a plain link carrying the page number.
    await expect(page.getByRole("link", { name: "Page suivante" })).toHaveAttribute("href", "/annuaire?page=2");
  });

  test("a text search narrows the list and is kept in the URL", async ({ page }) => {
    await page.goto("/annuaire");
    const total = await totalCount(page);
    const name = await cardName(page, 0);
    await searchBox(page).fill(name);
    await page.getByRole("button", { name: "Rechercher" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe(name);
    await expect(cardLinks(page).first()).toHaveAttribute("aria-label", `Voir le profil de ${name}`);
    // The URL changes before the list re-renders: wait for the narrowed count.
    await expect.poll(() => totalCount(page)).toBeLessThan(total);
    const narrowed = await totalCount(page);
    expect(narrowed).toBeGreaterThanOrEqual(1);
    if (narrowed === 1) await expect(resultCount(page)).toHaveText("1 professionnel trouvé");
    // The search box shows the query after the reload.
    await expect(searchBox(page)).toHaveValue(name);
  });

  test("department and sector selects filter on change, 'Réinitialiser' clears", async ({ page }) => {
    await page.goto("/annuaire");
    const total = await totalCount(page);
    // The first card's department, e.g. "Lyon (69)".
    const location = await page.getByRole("listitem").filter({ has: cardLinks(page).first() }).locator("p", { hasText: /\(\w+\)$/ }).first().textContent();
    const department = location!.match(/\((\w+)\)$/)![1];

    await page.getByRole("combobox", { name: "Département" }).selectOption(department);
    await expect(page).toHaveURL(new RegExp(`departement=${department}`));
    // The list is read once the filtered page is rendered (the URL may change first).
    const cards = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: /^Voir le profil de / }) });
    await expect
      .poll(async () => {
        const texts = await cards.allTextContents();
        return texts.length > 0 && texts.every((text) => text.includes(`(${department})`));
      })
      .toBe(true);
    const inDepartment = await totalCount(page);
    expect(inDepartment).toBeGreaterThanOrEqual(1);
    expect(inDepartment).toBeLessThanOrEqual(total);

    await page.getByRole("combobox", { name: "Secteur" }).selectOption("C");
    await expect(page).toHaveURL(/secteur=C/);
    await expect(page).toHaveURL(new RegExp(`departement=${department}`));
    expect(await totalCount(page)).toBeLessThanOrEqual(inDepartment);

    await page.getByRole("link", { name: "Réinitialiser" }).click();
    await expect(page).toHaveURL(/\/annuaire$/);
    await expect(page.getByRole("combobox", { name: "Département" })).toHaveValue("all");
    await expect(page.getByRole("combobox", { name: "Secteur" })).toHaveValue("all");
    expect(await totalCount(page)).toBe(total);
  });

  test("empty state with the call to join", async ({ page }) => {
    await page.goto("/annuaire?q=zzzz-personne-introuvable");
    await expect(resultCount(page)).toHaveText("0 professionnel trouvé");
    await expect(page.getByRole("heading", { name: "Aucun professionnel trouvé" })).toBeVisible();
    await expect(page.getByText("Essayez de modifier vos critères de recherche")).toBeVisible();
    await expect(page.getByRole("link", { name: "Rejoindre le réseau" })).toHaveAttribute("href", "/join-founder");
    await expect(cardLinks(page)).toHaveCount(0);
  });

  test("a card opens the public profile with its breadcrumb", async ({ page }) => {
    await page.goto("/annuaire");
    const name = await cardName(page, 1);
    await cardLinks(page).nth(1).click();
    await expect(page).toHaveURL(/\/consultant\/[a-z0-9-]+-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    const breadcrumb = page.getByRole("navigation", { name: "Fil d’Ariane" });
    await expect(breadcrumb).toHaveText(`Annuaire/${name}`);
    await expect(breadcrumb.getByRole("link", { name: "Annuaire" })).toHaveAttribute("href", "/annuaire");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the directory search works with a plain form submission", async ({ page }) => {
    await page.goto("/annuaire");
    const total = await totalCount(page);
    const name = await cardName(page, 2);
    await searchBox(page).fill(name);
    await page.getByRole("button", { name: "Rechercher" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe(name);
    await expect(cardLinks(page).first()).toHaveAttribute("aria-label", `Voir le profil de ${name}`);
    expect(await totalCount(page)).toBeLessThan(total);
  });

  test("the contact page works with a plain form submission", async ({ page }) => {
    await page.goto("/contact");
    await page.getByRole("button", { name: "Envoyer le message" }).click();
    await expect(page.getByText("Veuillez remplir tous les champs obligatoires")).toBeVisible();

    await field(page, "Prénom").fill("Sans");
    await field(page, "Nom").fill("Javascript");
    await field(page, "Sujet").fill("Envoi sans JavaScript");
    await page.getByRole("button", { name: "Envoyer le message" }).click();
    // Still one field missing: the values typed are kept.
    await expect(page.getByText("Veuillez remplir tous les champs obligatoires")).toBeVisible();
    await expect(field(page, "Prénom")).toHaveValue("Sans");
    await expect(field(page, "Sujet")).toHaveValue("Envoi sans JavaScript");

    await field(page, "Email").fill("sans.js@exemple.fr");
    await field(page, "Message").fill("Ce message part sans JavaScript.");
    await page.getByRole("button", { name: "Envoyer le message" }).click();
    const form = page.getByRole("form", { name: "Envoyez-nous un message" });
    await expect(form.getByRole("status")).toHaveText("Votre message a été envoyé avec succès !");
    await expect(field(page, "Prénom")).toHaveValue("");
    await expect(field(page, "Message")).toHaveValue("");
  });
});

test.describe("public profile /consultant/{slug}", () => {
  test("server HTML carries the SEO tags and one Person JSON-LD block", async ({ page, request, baseURL }) => {
    const path = await profilePath(page);
    const response = await request.get(path);
    expect(response.status()).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<title>[^<]+ - [^<]+ \| [^<]+<\/title>/);
    expect(html).toMatch(/<meta name="description" content="[^"]{10,}"/);
    expect(html).toContain(`<link rel="canonical" href="${baseURL}${path}"/>`);
    expect(html).toContain('<meta property="og:type" content="profile"/>');
    expect(html).toContain('<meta name="robots" content="index, follow"/>');
    const blocks = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)];
    expect(blocks).toHaveLength(1);
    const person = JSON.parse(blocks[0][1]) as { "@type": string; name: string; url: string };
    expect(person["@type"]).toBe("Person");
    expect(person.url).toBe(`${baseURL}${path}`);
    expect(html).toContain(person.name.replace(/'/g, "&#x27;"));
  });

  test("a malformed or unknown slug is a 404 'Profil non trouvé'", async ({ page }) => {
    for (const slug of ["pas-un-slug", "jean-dupont-notaire-00000000-0000-4000-8000-000000000000"]) {
      const response = await page.goto(`/consultant/${slug}`);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { name: "Profil non trouvé" })).toBeVisible();
      await expect(page.getByText("Ce professionnel n'existe pas ou n'est plus disponible.")).toBeVisible();
      await expect(page.getByRole("link", { name: "Retour à l’annuaire" })).toHaveAttribute("href", "/annuaire");
    }
  });

  test("contact dialog: send enabled once complete, success toast, notification e-mail", async ({ page }) => {
    await page.goto(`/annuaire?q=${encodeURIComponent(E2E_SEED.premium.name)}`);
    await page.getByRole("link", { name: `Voir le profil de ${E2E_SEED.premium.name}` }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: E2E_SEED.premium.name })).toBeVisible();

    await page.getByRole("button", { name: "Contacter ce professionnel" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toBeVisible();
    const send = dialog.getByRole("button", { name: "Envoyer" });
    await expect(send).toBeDisabled();
    const subject = `Reprise d’un cabinet ${Date.now()}`;
    await dialog.getByLabel("Nom complet").fill("Claire Visiteuse");
    await expect(send).toBeDisabled();
    await dialog.getByLabel("Email").fill("claire.visiteuse@exemple.fr");
    await expect(send).toBeDisabled();
    await dialog.getByLabel("Objet").fill(subject);
    await expect(send).toBeDisabled();
    // Blank text does not count.
    await dialog.getByLabel("Message").fill("   ");
    await expect(send).toBeDisabled();
    await dialog.getByLabel("Message").fill("Bonjour, je souhaiterais échanger sur la reprise d’un cabinet d’expertise comptable.");
    await expect(send).toBeEnabled();
    await send.click();

    await expect(page.getByText("Message envoyé avec succès !")).toBeVisible();
    await expect(dialog).toBeHidden();

    const mail = await waitForMail(page.request, E2E_SEED.premium.email, new RegExp(subject));
    expect(mail.text).toContain("Claire Visiteuse");
    expect(mail.text).toContain(subject);
    expect(mail.text).toContain("Bonjour, je souhaiterais échanger");
  });
});

test("without JavaScript, 'Contacter ce professionnel' is a plain form that sends the message (issue 16)", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`/annuaire?q=${encodeURIComponent(E2E_SEED.premium.name)}`);
  await page.getByRole("link", { name: `Voir le profil de ${E2E_SEED.premium.name}` }).first().click();
  await page.getByText("Contacter ce professionnel").click();
  const subject = `Sans JavaScript ${Date.now()}`;
  await page.getByLabel("Nom complet").fill("Paul Sansscript");
  await page.getByLabel("Email").fill("paul.sansscript@exemple.fr");
  await page.getByLabel("Objet").fill(subject);
  await page.getByLabel("Message").fill("Bonjour, je cherche un conseil pour la cession de mon entreprise.");
  await page.getByRole("button", { name: "Envoyer le message" }).click();
  await expect(page.getByText("Message envoyé avec succès !")).toBeVisible();
  const mail = await waitForMail(page.request, E2E_SEED.premium.email, new RegExp(subject));
  expect(mail.text).toContain("Paul Sansscript");
  await context.close();
});

test("FAQ: one question open at a time, and an open one can be closed", async ({ page }) => {
  await page.goto("/faq");
  const items = page.getByRole("main").locator("details");
  await expect(items).toHaveCount(8);
  await items.nth(0).locator("summary").click();
  await expect(items.nth(0)).toHaveAttribute("open", "");
  await items.nth(2).locator("summary").click();
  await expect(items.nth(2)).toHaveAttribute("open", "");
  await expect(items.nth(0)).not.toHaveAttribute("open");
  await expect(page.getByRole("main").locator("details[open]")).toHaveCount(1);
  await items.nth(2).locator("summary").click();
  await expect(page.getByRole("main").locator("details[open]")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Poser votre question" })).toHaveAttribute("href", "/contact");
});

test.describe("contact page /contact", () => {
  test("shows the address, the e-mail, the e-mail-first note and the 48 working hours promise", async ({ page }) => {
    await page.goto("/contact");
    const details = page.getByRole("complementary", { name: "Nos coordonnées" });
    await expect(details.getByText("Adresse", { exact: true })).toBeVisible();
    await expect(details.locator("address")).toBeVisible();
    await expect(details.getByText("Email", { exact: true })).toBeVisible();
    await expect(details.getByText(/privilégions les échanges par e-mail\s+plutôt que par téléphone/)).toBeVisible();
    await expect(page.getByText("48 heures ouvrées").first()).toBeVisible();
  });

  test("required fields, then success: fields cleared and the e-mail to the team, reply-to the sender", async ({ page }) => {
    await page.goto("/contact");
    const submit = page.getByRole("button", { name: "Envoyer le message" });
    await submit.click();
    await expect(page.getByText("Veuillez remplir tous les champs obligatoires")).toBeVisible();
    await expect(field(page, "Prénom")).toHaveAttribute("aria-invalid", "true");
    await expect(field(page, "Société (facultatif)")).not.toHaveAttribute("aria-invalid");

    const subject = `Partenariat ${Date.now()}`;
    const sender = `lucie.${Date.now()}@exemple.fr`;
    await field(page, "Prénom").fill("Lucie");
    await field(page, "Nom").fill("Fontaine");
    await field(page, "Email").fill(sender);
    await field(page, "Société (facultatif)").fill("Fontaine & Associés");
    await field(page, "Sujet").fill(subject);
    await field(page, "Message").fill("Bonjour,\nnous aimerions présenter le réseau à nos clients.");
    // While the request runs: 'Envoi en cours...' on a disabled button.
    await page.route("**/contact*", async (route) => {
      if (route.request().method() === "POST") await new Promise((r) => setTimeout(r, 500));
      await route.continue();
    });
    await submit.click();
    await expect(page.getByRole("button", { name: "Envoi en cours..." })).toBeDisabled();

    const form = page.getByRole("form", { name: "Envoyez-nous un message" });
    await expect(form.getByRole("status")).toHaveText("Votre message a été envoyé avec succès !");
    await expect(page.locator("[data-sonner-toast]", { hasText: "Votre message a été envoyé avec succès !" })).toBeVisible();
    for (const label of ["Prénom", "Nom", "Email", "Société (facultatif)", "Sujet", "Message"]) {
      await expect(field(page, label)).toHaveValue("");
    }
    await expect(field(page, "Nom")).toHaveValue("");
    await page.unroute("**/contact*");

    const mail = await waitForMail(page.request, CONTACT_EMAIL, new RegExp(`\\[Contact\\] ${subject}`));
    expect(mail.to).toBe(CONTACT_EMAIL);
    for (const part of ["Lucie", "Fontaine", sender, "Fontaine & Associés", "nous aimerions présenter le réseau"]) {
      expect(mail.text).toContain(part);
    }
    // The mailbox page shows the reply-to header.
    await page.goto(`/dev/mailbox/${mail.id}`);
    const replyTo = page.locator("dt", { hasText: "Répondre à" }).locator("xpath=following-sibling::dd[1]");
    await expect(replyTo).toHaveText(sender);
  });
});

test("sitemap.xml lists the public pages and the profiles; robots.txt points to it", async ({ request, baseURL }) => {
  const sitemap = await request.get("/sitemap.xml");
  expect(sitemap.status()).toBe(200);
  expect(sitemap.headers()["content-type"]).toContain("application/xml");
  expect(sitemap.headers()["cache-control"]).toBe("public, max-age=3600");
  const xml = await sitemap.text();
  expect(xml).toContain(`<loc>${baseURL}/annuaire</loc>`);
  expect(xml).toContain(`<loc>${baseURL}/contact</loc>`);
  expect(xml).toMatch(new RegExp(`<loc>${baseURL}/consultant/[a-z0-9-]+</loc><lastmod>\\d{4}-\\d{2}-\\d{2}T`));
  const robots = await request.get("/robots.txt");
  expect(robots.status()).toBe(200);
  const txt = await robots.text();
  expect(txt).toContain("Disallow: /dashboard");
  expect(txt).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
});

const AXE_PATHS = [
  "/",
  "/annuaire",
  "/concept",
  "/tiers-confiance",
  "/mentions-legales",
  "/cgu",
  "/politique-confidentialite",
  "/cookies",
  "/faq",
  "/support",
  "/aide",
  "/contact",
  "/join-founder",
];

test.describe("accessibility (axe)", () => {
  for (const path of AXE_PATHS) {
    test(`no violations on ${path}`, async ({ page }) => {
      await page.goto(path);
      await expectNoAxeViolations(page);
    });
  }

  test("no violations on a public profile, its contact dialog open", async ({ page }) => {
    await page.goto(await profilePath(page));
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "Contacter ce professionnel" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test("no violations on the directory's empty state and on the contact page's errors", async ({ page }) => {
    await page.goto("/annuaire?q=zzzz-personne-introuvable");
    await expectNoAxeViolations(page);
    await page.goto("/contact");
    await page.getByRole("button", { name: "Envoyer le message" }).click();
    await expect(page.getByText("Veuillez remplir tous les champs obligatoires")).toBeVisible();
    await expectNoAxeViolations(page);
  });
});
