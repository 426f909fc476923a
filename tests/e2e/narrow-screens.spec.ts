import { expect, type Page } from "@playwright/test";
import { GALLERY, photograph, writeGalleryIndex } from "./gallery";
import { scanNow, test } from "./typography-scan";
import {
  admitGuest,
  FOUNDER,
  FREEMIUM,
  PREMIUM,
  signInAs,
  signInAsAdmin,
  fillVerification,
  signUpAndVerify,
  uniqueEmail,
} from "./fixtures";

// Every page of the route map (app/routes.ts), as each role that can open it, at 360 × 740 with
// its dialogs and panels open: nothing may be wider than the screen. A page that does not fit is
// photographed in full into test-results; E2E_SCREENSHOTS=1 photographs every page for review.
// With E2E_GALLERY=1 every page is also photographed and checked at 1280 px (tests/e2e/gallery.ts).

const PHONE = { width: 360, height: 740 };

test.use({ viewport: PHONE });
// About thirty pages per test, each measured and photographed in full (twice more in the gallery).
test.describe.configure({ timeout: GALLERY ? 360_000 : 180_000 });
test.afterEach(() => writeGalleryIndex());

/**
 * Visible elements whose box leaves the viewport horizontally or sticks out of the bordered box
 * that holds them (a card), except inside a box that scrolls or clips on that axis (a table in its
 * own scrolling box, a tab bar); each named by tag, id or first class, position and text.
 */
function elementsOutside(): string[] {
  // The nearest ancestor drawn with a border on both sides (a card, a fieldset, a list item box).
  const borderedAncestor = (el: Element): Element | null => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (parseFloat(s.borderLeftWidth) > 0 && parseFloat(s.borderRightWidth) > 0) return a;
    }
    return null;
  };
  const width = document.documentElement.clientWidth;
  const out: string[] = [];
  const found: Element[] = [];
  const clips = (el: Element) => ["auto", "scroll", "hidden", "clip"].includes(getComputedStyle(el).overflowX);
  for (const el of Array.from(document.body.querySelectorAll("*"))) {
    const box = el.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) continue; // empty, or visually hidden (sr-only)
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || style.display === "contents") continue;
    if (box.right <= width + 1 && box.left >= -1) {
      // Inside the screen, but maybe out of its bordered box (a button sticking out of its card).
      if (style.position === "absolute" || style.position === "fixed") continue;
      const frame = borderedAncestor(el);
      if (!frame) continue;
      const f = frame.getBoundingClientRect();
      if (box.right <= f.right + 1 && box.left >= f.left - 1) continue;
    }
    let clipped = false;
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (clips(a)) {
        clipped = true;
        break;
      }
    }
    if (clipped) continue;
    found.push(el);
  }
  // Name the culprits first: the innermost elements that stick out (their ancestors follow).
  const innermost = found.filter((el) => !found.some((other) => other !== el && el.contains(other)));
  for (const el of [...innermost, ...found.filter((el) => !innermost.includes(el))]) {
    const box = el.getBoundingClientRect();
    const id = el.id ? `#${el.id}` : typeof el.className === "string" && el.className ? `.${el.className.split(/\s+/)[0]}` : "";
    const text = (el.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 50);
    out.push(`${el.tagName.toLowerCase()}${id} [${Math.round(box.left)}–${Math.round(box.right)} px] "${text}"`);
  }
  return out.slice(0, 8);
}

const PHOTOGRAPH_ALL = process.env.E2E_SCREENSHOTS === "1";

/** The page fits the phone's width; a full-page screenshot is kept when it does not (or on request). */
async function expectFits(page: Page, name: string) {
  await page.waitForLoadState("load");
  // Fonts and late layout settle before measuring.
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  const outside = await page.evaluate(elementsOutside);
  if (PHOTOGRAPH_ALL || scrollWidth !== innerWidth || outside.length > 0) {
    await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
  }
  expect.soft({ page: name, scrollWidth, outside }, `${name} is wider than the screen`).toEqual({
    page: name,
    scrollWidth: innerWidth,
    outside: [],
  });
  // The gallery: this page at 1280 and 360 px, the design checks run at each width. The test's
  // role is the start of its title (« freemium member », « admin »…).
  await photograph(page, name, test.info().title.split(":")[0], () => scanNow(page));
}

async function visit(page: Page, url: string, name: string) {
  const response = await page.goto(url);
  expect.soft(response?.status(), `${url} answers`).toBeLessThan(500);
  await expectFits(page, name);
}

/** The first link whose address starts with `prefix`, or null. */
async function firstHref(page: Page, prefix: string): Promise<string | null> {
  const link = page.locator(`a[href^="${prefix}"]`).first();
  return (await link.count()) ? await link.getAttribute("href") : null;
}

test("visitor: every public page, menu and contact form open", async ({ page }) => {
  const pages: Array<[string, string]> = [
    ["/", "accueil"],
    ["/annuaire", "annuaire"],
    ["/annuaire?q=conseil&page=2", "annuaire-recherche"],
    ["/auth", "auth"],
    ["/auth?mode=inscription", "auth-inscription"],
    ["/auth/mot-de-passe-oublie", "mot-de-passe-oublie"],
    ["/auth/nouveau-mot-de-passe?token=invalide", "nouveau-mot-de-passe"],
    ["/join-founder", "join-founder"],
    ["/confirm-recommendation", "confirm-recommendation"],
    ["/concept", "concept"],
    ["/tiers-confiance", "tiers-confiance"],
    ["/mentions-legales", "mentions-legales"],
    ["/cgu", "cgu"],
    ["/politique-confidentialite", "politique-confidentialite"],
    ["/contact", "contact"],
    ["/faq", "faq"],
    ["/support", "support"],
    ["/aide", "aide"],
    ["/cookies", "cookies"],
    ["/desabonnement?token=invalide", "desabonnement"],
    ["/dev/mailbox", "dev-mailbox"],
    ["/page-qui-n-existe-pas", "404"],
  ];
  for (const [url, name] of pages) await visit(page, url, name);

  // The mobile menu open.
  await page.goto("/");
  const menu = page.locator("header details");
  await menu.locator("summary").click();
  await expectFits(page, "accueil-menu-ouvert");
  // Following a link closes the menu.
  await page.getByRole("navigation", { name: "Navigation mobile" }).getByRole("link", { name: "Annuaire" }).click();
  await expect(page).toHaveURL(/\/annuaire$/);
  await expect(menu).not.toHaveAttribute("open");

  // A public profile, with its contact form open; a message in the mailbox.
  await page.goto("/annuaire");
  const profile = await firstHref(page, "/consultant/");
  expect(profile).not.toBeNull();
  await visit(page, profile!, "consultant");
  await page.getByText("Contacter ce professionnel").first().click();
  await expectFits(page, "consultant-contact-ouvert");

  await page.goto("/dev/mailbox");
  const mail = await firstHref(page, "/dev/mailbox/");
  if (mail) await visit(page, mail, "dev-mailbox-message");
});

test("applicant: each onboarding step, the waiting page and the settings", async ({ page }) => {
  await signUpAndVerify(page, uniqueEmail("etroit"), "secret-123");
  await expectFits(page, "onboarding-1-profil");
  await page.getByLabel("Prénom").fill("Anne-Sophie");
  await page.getByLabel("Nom", { exact: true }).fill("Delacroix-Vasseur");
  await page.getByLabel("Société / cabinet").fill("Cabinet Delacroix-Vasseur Transmission & Associés");
  await page.getByLabel("Profession").selectOption({ label: "Conseil en fusions-acquisitions" });
  await page.getByLabel("Transmission d’entreprises").check();
  await page.getByRole("button", { name: "Continuer" }).click();

  await expect(page.getByRole("heading", { name: "Charte d’engagement", exact: true })).toBeVisible();
  await expectFits(page, "onboarding-2-charte");
  await page.getByLabel("J’ai lu et j’accepte la charte d’engagement des membres.").check();
  await page.getByRole("button", { name: "Signer la charte et continuer" }).click();

  await expect(page.getByLabel("Votre expérience")).toBeVisible();
  await expectFits(page, "onboarding-3-experience");
  await page.getByLabel("Votre expérience").fill("Quinze ans de conseil en cession de PME industrielles.");
  await page.getByLabel("Opérations récentes").fill("Cession d’une PME du BTP (2025)\u00a0; reprise d’un distributeur (2024).");
  await page.getByRole("button", { name: "Continuer" }).click();

  await expect(page.getByLabel("SIREN ou SIRET de votre structure")).toBeVisible();
  await expectFits(page, "onboarding-3b-justificatifs");
  await fillVerification(page);

  await expect(page.getByRole("button", { name: "Envoyer les demandes de recommandation" })).toBeVisible();
  await expectFits(page, "onboarding-4-parrains");
  const names = page.getByLabel("Nom complet");
  const emails = page.getByLabel("Email");
  await names.nth(0).fill("Jean-Baptiste Montgolfier-Lefebvre");
  await emails.nth(0).fill(uniqueEmail("parrain-tres-long-nom-de-boite"));
  await names.nth(1).fill("Marie Curie");
  await emails.nth(1).fill(uniqueEmail("parrain"));
  await page.getByRole("button", { name: "Envoyer les demandes de recommandation" }).click();

  const founding = page.getByRole("button", { name: /Devenir membre fondateur/ });
  await expect(founding).toBeVisible();
  await expectFits(page, "onboarding-5-paiement");
  // Each payment button stays inside its card, on a phone and on a desktop.
  for (const viewport of [PHONE, { width: 1280, height: 800 }]) {
    await page.setViewportSize(viewport);
    for (const button of await page.getByRole("button", { name: /Devenir membre fondateur|Commencer gratuitement/ }).all()) {
      const inside = await button.evaluate((el) => {
        const card = el.closest("[data-slot=card], .rounded-lg, .rounded-xl") ?? el.parentElement!;
        const b = el.getBoundingClientRect();
        const c = card.getBoundingClientRect();
        return b.left >= c.left - 0.5 && b.right <= c.right + 0.5;
      });
      expect.soft(inside, `payment button inside its card at ${viewport.width} px`).toBe(true);
    }
  }
  await page.setViewportSize(PHONE);

  await page.getByRole("button", { name: "Commencer gratuitement" }).click();
  await expect(page.getByText("80 %")).toBeVisible();
  await expectFits(page, "onboarding-6-attente");
  await page.goto("/parametres");
  await expectFits(page, "candidat-parametres");

  // The header sends the applicant to their membership, not to a dashboard they cannot open;
  // signing out from the mobile menu closes it.
  const menu = page.locator("header details");
  await menu.locator("summary").click();
  await expect(menu.getByRole("link", { name: "Tableau de bord" })).toHaveCount(0);
  await menu.getByRole("link", { name: "Mon adhésion" }).click();
  await expect(page).toHaveURL(/\/onboarding$/);
  await expect(page.getByText("80 %")).toBeVisible();
  await expect(menu).not.toHaveAttribute("open");
  await menu.locator("summary").click();
  await menu.getByRole("button", { name: "Déconnexion" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(menu).not.toHaveAttribute("open");
  await menu.locator("summary").click();
  await expect(menu.getByRole("link", { name: "Connexion" })).toBeVisible();
});

async function memberPages(page: Page, who: string) {
  const pages: Array<[string, string]> = [
    ["/dashboard", "tableau-de-bord"],
    ["/dashboard/messages", "messages"],
    ["/dashboard/annuaire", "annuaire-membres"],
    ["/dashboard/profil", "profil"],
    ["/dashboard/mandats", "mandats-tableau"],
    ["/dashboard/stats", "stats"],
    ["/dashboard/dossiers", "dossiers"],
    ["/dashboard/notifications", "notifications"],
    ["/parametres/assurance", "parametres-assurance"],
    ["/premium", "premium"],
    ["/mandates", "mandates"],
    ["/mandates?onglet=opportunites", "mandates-opportunites"],
    ["/mandates?nouveau=1", "mandates-nouveau"],
    ["/parametres", "parametres"],
  ];
  // The settings' other pages and the public directory once, as premium.
  if (who === "premium") {
    for (const subject of ["securite", "notifications", "donnees", "facturation"]) pages.push([`/parametres/${subject}`, `parametres-${subject}`]);
    pages.push(["/annuaire", "annuaire-public"]);
  }
  for (const [url, name] of pages) await visit(page, url, `${who}-${name}`);

  // The member space's bottom bar shows the current place on a phone, also one behind 'Plus'.
  const bar = page.getByRole("navigation", { name: "Sections de l’espace membre" });
  await page.goto("/dashboard/stats");
  await expect(bar.locator("summary")).toContainText("Statistiques");
  await expect(bar.locator("summary")).toBeInViewport({ ratio: 0.9 });
  await page.goto("/dashboard/messages");
  await expect(bar.getByRole("link", { name: "Messages" })).toHaveAttribute("aria-current", "page");
  await expect(bar.getByRole("link", { name: "Messages" })).toBeInViewport({ ratio: 0.9 });

  // Dialogs and panels: a message, a contact dialog in the members' directory, a mandate's
  // details and its matching panel.
  await page.goto("/dashboard/messages");
  const message = await firstHref(page, "/dashboard/messages/");
  if (message) await visit(page, message, `${who}-message`);

  await page.goto("/dashboard/annuaire");
  const contact = page.getByRole("button", { name: /^Contacter / }).first();
  if (await contact.count()) {
    await contact.click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await expectFits(page, `${who}-annuaire-membres-contact`);
    await page.keyboard.press("Escape");
  }

  // A collaboration file's tabs (the first file of the list, if any): overview, rating, mediation.
  await page.goto("/dashboard/dossiers");
  const file = (await firstHref(page, "/dashboard/dossiers/"))?.match(/^\/dashboard\/dossiers\/[^/?#]+/)?.[0];
  if (file) {
    await visit(page, file, `${who}-dossier`);
    await visit(page, `${file}/evaluation`, `${who}-dossier-evaluation`);
    await visit(page, `${file}/mediation`, `${who}-dossier-mediation`);
    await visit(page, `${file}/diligences`, `${who}-dossier-diligences`);
    await visit(page, `${file}/intervenants`, `${who}-dossier-intervenants`);
  }

  // A peer's profile as members see it (ratings, responsiveness, report forms).
  await page.goto("/annuaire");
  const peer = await firstHref(page, "/consultant/");
  if (peer) {
    await visit(page, peer, `${who}-profil-confrere`);
    const report = page.getByText("Signaler", { exact: true }).first();
    if (await report.count()) {
      await report.click();
      await expectFits(page, `${who}-profil-confrere-signaler`);
    }
  }

  await page.goto("/mandates");
  const details = await firstHref(page, "/mandates?details=");
  if (details) await visit(page, details, `${who}-mandat-details`);
  await page.goto("/mandates");
  const matching = page.locator('a[href*="matching="]').first();
  if (await matching.count()) await visit(page, (await matching.getAttribute("href"))!, `${who}-mandat-matching`);
}

test("freemium member: member space, mandates, settings", async ({ page }) => {
  await signInAs(page, FREEMIUM.email);
  await memberPages(page, "freemium");
});

test("premium member: member space, mandates, settings", async ({ page }) => {
  await signInAs(page, PREMIUM.email);
  await memberPages(page, "premium");
});

test("founding member: member space, mandates, settings", async ({ page }) => {
  await signInAs(page, FOUNDER.email);
  await memberPages(page, "fondateur");
});

test("admin: every tab, a profile's detail panel, the journal", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAsAdmin(page);
  await page.setViewportSize(PHONE);
  for (const [url, name] of [
    ["/admin", "admin-profils"],
    ["/admin?statut=pending_validation", "admin-profils-en-attente"],
    ["/admin/deals", "admin-deals"],
    ["/admin/recommandations", "admin-recommandations"],
    ["/admin/journal", "admin-journal"],
    ["/admin/mediations", "admin-mediations"],
    ["/admin/evaluations", "admin-evaluations"],
    ["/parametres", "admin-parametres"],
  ] as const)
    await visit(page, url, name);
  await page.goto("/admin/mediations");
  const mediation = await firstHref(page, "/admin/mediations/");
  if (mediation) await visit(page, mediation, "admin-mediation");
  await page.goto("/admin");
  const detail = page.getByRole("link", { name: /^Voir le profil de / }).first();
  await visit(page, (await detail.getAttribute("href"))!, "admin-profil-detail");
});

test("a file's guest: shared files, the file, its due-diligence list and a request", async ({ browser }) => {
  const desktop = { viewport: { width: 1280, height: 800 } };
  const helene = await (await browser.newContext(desktop)).newPage();
  const thomas = await (await browser.newContext(desktop)).newPage();
  const guest = await (await browser.newContext({ viewport: PHONE })).newPage();
  await signInAs(helene, FOUNDER.email);
  await signInAs(thomas, PREMIUM.email);
  await helene.goto("/dashboard/dossiers");
  await helene.getByRole("link", { name: new RegExp(PREMIUM.name) }).first().click();
  await expect(helene.getByRole("heading", { name: `Dossier avec ${PREMIUM.name}` })).toBeVisible();
  const filePath = new URL(helene.url()).pathname;
  // A request to open: the list from its template while the file is open (a concluded file keeps none).
  await helene.goto(`${filePath}/diligences`);
  const create = helene.getByRole("button", { name: "Créer la liste" });
  if (await create.count()) {
    await create.click();
    await expect(helene.getByText("Liste de diligences créée")).toBeVisible();
  }
  const sharedPath = await admitGuest(helene, thomas, guest, filePath, {
    email: uniqueEmail("invite-mobile"),
    firstName: "Noé",
    lastName: "Mobile",
    role: "avocat",
    side: "cedant",
    rights: { voir: true, telecharger: true, deposer: true },
  });
  await visit(guest, "/dossiers-partages", "invite-dossiers-partages");
  await visit(guest, sharedPath, "invite-dossier");
  await visit(guest, `${sharedPath}/diligences`, "invite-diligences");
  const request = await firstHref(guest, `${sharedPath}/diligences/`);
  if (request) await visit(guest, request, "invite-diligence-demande");
  for (const p of [helene, thomas, guest]) await p.context().close();
});
