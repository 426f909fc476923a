// The profile tab 'Mon Profil Professionnel': save, image upload, certified-deals editor, the
// freemium view, and the same forms without JavaScript. Runs against the seeded demo (seed 7):
// the founding-member persona edits (and restores) its own profile; the freemium one only looks.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { test } from "./typography-scan";
import sharp from "sharp";
import { E2E_SEED, expectNoAxeViolations, signIn } from "./fixtures";

const DEMO_PASSWORD = "demo-transmission-2026";
const demoEmail = (kind: "fondateur" | "freemium") => `${kind}+s${E2E_SEED.seed}@demo.reseau-transmission.fr`;

/** Toasts come and go; axe looks at the page itself once they are gone. */
async function expectAccessibleTab(page: Page) {
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 15_000 });
  await expectNoAxeViolations(page);
}

async function openProfileTab(page: Page, kind: "fondateur" | "freemium") {
  await signIn(page, demoEmail(kind), DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/dashboard/profil");
  await expect(page.getByRole("heading", { level: 2, name: "Mon Profil Professionnel" })).toBeVisible();
}

/** A real image written by the test itself. */
async function imageFile(dir: string, name: string, format: "png" | "jpeg", width = 1400, height = 1000) {
  mkdirSync(dir, { recursive: true });
  const image = sharp({ create: { width, height, channels: 3, background: { r: 20, g: 90, b: 160 } } });
  const bytes = format === "png" ? await image.png().toBuffer() : await image.jpeg().toBuffer();
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

test.describe("profile tab, founding member", () => {
  test("shows the premium editor and saves the profile", async ({ page }) => {
    await openProfileTab(page, "fondateur");
    const tab = page.getByRole("region", { name: "Mon Profil Professionnel" });
    await expect(tab.getByText("Premium", { exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "Découvrir Premium" })).toHaveCount(0);
    // Identity is read-only.
    await expect(page.getByLabel("Prénom", { exact: true })).toHaveValue("Hélène");
    await expect(page.getByLabel("Nom", { exact: true })).toHaveValue("Marchand");
    for (const label of ["Prénom", "Nom", "Société / cabinet", "Profession", "Collège"]) {
      await expect(page.getByLabel(label, { exact: true })).toHaveAttribute("readonly", "");
    }
    await expect(page.getByLabel("Présentation détaillée (profil public)")).toBeVisible();
    await expect(page.getByLabel("Présentation interne (réservée aux confrères)")).toBeVisible();
    await expectAccessibleTab(page);

    const department = page.getByLabel("Département");
    const city = page.getByLabel("Ville");
    const original = { department: await department.inputValue(), city: await city.inputValue() };
    const originalSectors = await page.locator('input[name="specializationSectors"]:checked').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));

    // Chips: tick two sectors, remove one through its chip.
    const construction = page.getByRole("checkbox", { name: /^F - Construction/ });
    const hotels = page.getByRole("checkbox", { name: /^I - Hébergement/ });
    await construction.check();
    await hotels.check();
    const chips = page.getByRole("list", { name: "Secteurs sélectionnés" });
    await expect(chips.getByText("F - Construction")).toBeVisible();
    await chips.getByRole("button", { name: "Retirer le secteur Construction" }).click();
    await expect(construction).not.toBeChecked();
    await expect(chips.getByText("F - Construction")).toHaveCount(0);

    const newCity = `Ville-test-${Date.now()}`;
    await department.selectOption("33");
    await city.fill(newCity);
    await page.getByLabel("Adresse complète").fill("1 cours de l’Intendance, 33000 Bordeaux");
    await page.getByRole("button", { name: "Sauvegarder" }).click();
    await expect(page.getByText("Profil mis à jour")).toBeVisible();
    await expect(page.getByText("Vos modifications ont été sauvegardées")).toBeVisible();

    await page.reload();
    await expect(page.getByLabel("Département")).toHaveValue("33");
    await expect(page.getByLabel("Ville")).toHaveValue(newCity);
    await expect(page.getByRole("checkbox", { name: /^I - Hébergement/ })).toBeChecked();
    await expect(page.getByRole("checkbox", { name: /^F - Construction/ })).not.toBeChecked();

    // Department required: the message of the form, nothing saved.
    await page.getByLabel("Département").selectOption("");
    await page.getByRole("button", { name: "Sauvegarder" }).click();
    await expect(page.getByText("Veuillez sélectionner un département")).toBeVisible();

    // Put the demo persona back as it was for the other specs.
    await page.getByLabel("Département").selectOption(original.department);
    await page.getByLabel("Ville").fill(original.city);
    for (const box of await page.locator('input[name="specializationSectors"]').all()) {
      const value = await box.getAttribute("value");
      await box.setChecked(originalSectors.includes(value ?? ""));
    }
    // Slow the save down a little to see the button's saving state.
    await page.route("**/dashboard/profil.data*", async (route) => {
      if (route.request().method() === "POST") await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    await page.getByRole("button", { name: "Sauvegarder" }).click();
    await expect(page.getByRole("button", { name: "Sauvegarde..." })).toBeDisabled();
    await expect(page.getByText("Profil mis à jour")).toBeVisible();
  });

  test("uploads a photo with progress, served as an immutable WebP", async ({ page }, testInfo) => {
    await openProfileTab(page, "fondateur");
    const dir = testInfo.outputPath("images");
    const photo = await imageFile(dir, "portrait.png", "png");
    // Hold the answer a moment so that the progress bar can be seen.
    await page.route("**/api/uploads", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    await page.getByLabel("Photo de profil").setInputFiles(photo);
    await expect(page.getByRole("progressbar", { name: "Envoi\u00a0: Photo de profil" })).toBeVisible();
    await expect(page.getByText("Profil mis à jour")).toBeVisible();
    const img = page.getByRole("img", { name: "Photo de Hélène Marchand" });
    await expect(img).toHaveAttribute("src", /^\/uploads\/[^/]+\/\d+-[0-9a-f]+\.webp$/);
    const src = await img.getAttribute("src");
    const res = await page.request.get(src!);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toBe("image/webp");
    expect(res.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.headers()["x-content-type-options"]).toBe("nosniff");
    const meta = await sharp(await res.body()).metadata();
    expect(meta.format).toBe("webp");
    expect(Math.max(meta.width, meta.height)).toBeLessThanOrEqual(800);
    await page.unroute("**/api/uploads");

    // A file that is not an image is refused before it is sent.
    const svg = path.join(dir, "logo.svg");
    writeFileSync(svg, '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    await page.getByLabel("Logo du cabinet").setInputFiles(svg);
    await expect(page.getByText("Type de fichier non supporté")).toBeVisible();
    await expect(page.getByRole("alert").filter({ hasText: "Veuillez sélectionner une image" })).toBeVisible();

    // Over the profile editor's 2 MB limit.
    const big = path.join(dir, "big.jpg");
    writeFileSync(big, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(3 * 1024 * 1024)]));
    await page.getByLabel("Logo du cabinet").setInputFiles(big);
    await expect(page.getByText("La taille du fichier ne doit pas dépasser 2\u00a0Mo").first()).toBeVisible();
    await expectAccessibleTab(page);
  });

  test("adds, edits and deletes a certified deal; validated ones cannot be edited", async ({ page }) => {
    await openProfileTab(page, "fondateur");
    const references = page.getByRole("region", { name: "Références M&A certifiées" });
    await expect(references).toBeVisible();
    const year = new Date().getFullYear();
    const label = `Cession d’une biscuiterie ${Date.now()}`;

    // Required fields.
    await references.getByRole("button", { name: "Ajouter la référence" }).click();
    await expect(references.getByText("Veuillez remplir tous les champs obligatoires").first()).toBeVisible();

    await references.getByLabel("Année").selectOption(String(year - 1));
    await references.getByLabel("Secteur", { exact: true }).selectOption("C");
    await references.getByLabel("Transaction (acquéreur / cédant)").fill(label);
    await references.getByLabel("Description (facultatif)").fill("Accompagnement du cédant, 40 salariés.");
    await references.getByRole("button", { name: "Ajouter la référence" }).click();
    await expect(page.getByText("Référence ajoutée")).toBeVisible();
    await expect(page.getByText("Votre référence sera visible après validation par un administrateur").first()).toBeVisible();
    const item = references.getByRole("listitem").filter({ hasText: label });
    await expect(item.getByText("En attente de validation")).toBeVisible();

    await item.getByRole("link", { name: `Modifier la référence ${label} (${year - 1})` }).click();
    await expect(references.getByRole("heading", { name: "Modifier la référence" })).toBeVisible();
    await expect(references.getByLabel("Transaction (acquéreur / cédant)")).toHaveValue(label);
    const edited = `${label} (modifiée)`;
    await references.getByLabel("Transaction (acquéreur / cédant)").fill(edited);
    await references.getByLabel("Année").selectOption(String(year));
    await references.getByRole("button", { name: "Mettre à jour la référence" }).click();
    await expect(page.getByText("Référence mise à jour")).toBeVisible();
    const editedItem = references.getByRole("listitem").filter({ hasText: edited });
    await expect(editedItem.getByText(`${year} · C - Industrie manufacturière`)).toBeVisible();
    await expect(editedItem.getByText("En attente de validation")).toBeVisible();

    // The seeded persona has validated references: delete allowed, edit not offered.
    const validated = references.getByRole("listitem").filter({ has: page.getByText("Validée", { exact: true }) }).first();
    await expect(validated).toBeVisible();
    await expect(validated.getByRole("link", { name: /^Modifier/ })).toHaveCount(0);
    await expect(validated.getByRole("button", { name: /^Supprimer la référence/ })).toBeVisible();
    await expectAccessibleTab(page);

    await editedItem.getByRole("button", { name: `Supprimer la référence ${edited} (${year})` }).click();
    const dialog = page.getByRole("dialog", { name: "Supprimer la référence" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Supprimer" }).click();
    await expect(page.getByText("Référence supprimée")).toBeVisible();
    await expect(references.getByRole("listitem").filter({ hasText: edited })).toHaveCount(0);
  });
});

test("a freemium member sees the upsell and no premium fields", async ({ page }) => {
  await openProfileTab(page, "freemium");
  await expect(page.getByRole("region", { name: "Mon Profil Professionnel" }).getByText("Freemium", { exact: true })).toBeVisible();
  const upsell = page.getByRole("link", { name: "Découvrir Premium" });
  await expect(upsell).toHaveAttribute("href", "/premium");
  await expect(page.getByLabel("Département")).toBeVisible();
  await expect(page.getByLabel("Ville")).toBeVisible();
  await expect(page.getByRole("group", { name: "Secteurs d’activité" })).toBeVisible();
  await expect(page.getByLabel("Présentation détaillée (profil public)")).toHaveCount(0);
  await expect(page.getByLabel("Présentation interne (réservée aux confrères)")).toHaveCount(0);
  await expect(page.getByLabel("Logo du cabinet")).toHaveCount(0);
  await expect(page.getByLabel("Photo de profil")).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Références M&A certifiées" })).toHaveCount(0);
  await expectAccessibleTab(page);
  await upsell.click();
  await expect(page).toHaveURL(/\/premium$/);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the profile form and the logo upload still work", async ({ page }, testInfo) => {
    await openProfileTab(page, "fondateur");
    const address = `${Date.now() % 100} rue de la Paix, 75002 Paris`;
    await page.getByLabel("Adresse complète").fill(address);
    await page.getByRole("button", { name: "Sauvegarder" }).click();
    await expect(page).toHaveURL(/\/dashboard\/profil$/);
    await expect(page.getByLabel("Adresse complète")).toHaveValue(address);

    const logo = await imageFile(testInfo.outputPath("images"), "logo.jpg", "jpeg", 900, 300);
    const form = page.locator("form", { has: page.getByLabel("Logo du cabinet") });
    await form.getByLabel("Logo du cabinet").setInputFiles(logo);
    await form.getByRole("button", { name: "Envoyer l’image" }).click();
    await expect(page).toHaveURL(/\/dashboard\/profil$/);
    await expect(page.getByRole("img", { name: /^Logo / })).toHaveAttribute("src", /^\/uploads\/.+\.webp$/);
    await page.getByRole("button", { name: "Retirer le logo" }).click();
    await expect(page.getByRole("img", { name: /^Logo / })).toHaveCount(0);
  });
});
