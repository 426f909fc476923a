// The stepped mandate form, the mandate cards' figures and menu, and the matching panel as a
// sheet on a phone (issue 15 §4), at 1280 and 360 px, with axe at each stage.
import { randomBytes } from "node:crypto";
import { type Browser, expect, type Page } from "@playwright/test";
import { test } from "./typography-scan";
import { DEMO_PASSWORD, expectNoAxeViolations, FOUNDER, FREEMIUM, overflowingElements, PREMIUM, signIn } from "./fixtures";
import { certifyAndCreate, expectStep, fillMandate, nextStep, openNewMandate, pick } from "./mandate-form-helpers";

const NNBSP = "\u202f";
const WIDTHS = [
  { name: "1280 px", viewport: { width: 1280, height: 900 } },
  { name: "360 px", viewport: { width: 360, height: 740 } },
];

async function member(browser: Browser, email: string, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await signIn(page, email, DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  return page;
}

async function fits(page: Page) {
  expect(await page.evaluate(overflowingElements)).toEqual([]);
}

for (const { name, viewport } of WIDTHS) {
  test(`stepped form at ${name}: back and next keep the input, the review, the cards' figures and menu`, async ({ browser }) => {
    test.slow();
    const tag = randomBytes(3).toString("hex").toUpperCase();
    const buyerCode = `STEP-ACQ-${tag}`;
    const sellerCode = `STEP-CED-${tag}`;

    // A seller of another member first: the buyer's card will count it (sector U, Mayotte: 100 %).
    const seller = await member(browser, PREMIUM.email, viewport);
    const sellerForm = await openNewMandate(seller);
    await fillMandate(sellerForm, { type: "seller", code: sellerCode, name: `Cédante ${tag}`, address: `3 quai ${tag}, 97600 Mamoudzou` });
    await expect(sellerForm.getByTestId("mandate-review")).toContainText(/1\s200\s000\s€/);
    await certifyAndCreate(seller, sellerForm, sellerCode);

    const page = await member(browser, FOUNDER.email, viewport);
    const form = await openNewMandate(page);
    await expect(page.getByText("Les champs marqués d’un astérisque (*) sont obligatoires.")).toBeVisible();
    await expectNoAxeViolations(page);
    if (viewport.width === 360) await fits(page);

    // Step 1 → 2: criteria, with the searchable multi-selects and an amount typed as digits.
    await expectStep(form, 1, "Type et exclusivité");
    await nextStep(form);
    await expectStep(form, 2, "Critères de l’acquéreur");
    await pick(form, "Filtrer les secteurs", "extra", "U - Activités extra-territoriales");
    // The count of results is announced as the filter narrows the list.
    await form.getByLabel("Filtrer les départements ou les régions").fill("ile-de");
    await expect(form.getByText("0 territoire sélectionné · 8 résultats")).toBeVisible();
    await form.getByRole("checkbox", { name: "75 - Paris" }).check();
    await form.getByLabel("Filtrer les départements ou les régions").fill("mayotte");
    await form.getByRole("checkbox", { name: "976 - Mayotte" }).check();
    await form.getByLabel("Filtrer les départements ou les régions").fill("");
    await expect(form.getByRole("checkbox", { name: "France entière" })).toBeVisible();
    // Chips are buttons: 'Retirer …'.
    await form.getByRole("button", { name: "Retirer 75 - Paris" }).click();
    await expect(form.getByRole("checkbox", { name: "75 - Paris" })).not.toBeChecked();
    await expect(form.getByRole("button", { name: "Retirer 976 - Mayotte" })).toBeVisible();
    const amount = form.getByLabel("Montant cible minimum");
    await amount.pressSequentially("500000");
    await expect(amount).toHaveValue(`500${NNBSP}000`);
    await expect(form.locator('input[type="hidden"][name="targetAmountMin"]')).toHaveValue("500000");
    await form.getByLabel("Montant cible maximum").fill("2000000");
    await expect(form.getByLabel("Montant cible maximum")).toHaveValue(`2${NNBSP}000${NNBSP}000`);
    await form.getByLabel("Apport minimum", { exact: true }).fill("100000");
    await form.getByLabel("Apport maximum", { exact: true }).fill("300000");
    await expectNoAxeViolations(page);
    if (viewport.width === 360) await fits(page);

    // Back to step 1 and forward again: nothing lost.
    await form.getByRole("button", { name: "Précédent" }).click();
    await expectStep(form, 1, "Type et exclusivité");
    await nextStep(form);
    await expectStep(form, 2, "Critères de l’acquéreur");
    await expect(form.getByRole("checkbox", { name: "U - Activités extra-territoriales" })).toBeChecked();
    await expect(form.getByRole("button", { name: "Retirer 976 - Mayotte" })).toBeVisible();
    await expect(amount).toHaveValue(`500${NNBSP}000`);

    // Step 3: the required client fields are asked for before going on.
    await nextStep(form);
    await expectStep(form, 3, "Client confidentiel");
    await nextStep(form);
    await expectStep(form, 3, "Client confidentiel");
    await expect(form.getByText("Les initiales/nom de code sont obligatoires")).toBeVisible();
    await expect(form.getByLabel("Initiales ou nom de code du client")).toBeFocused();
    await form.getByLabel("Initiales ou nom de code du client").fill(buyerCode);
    await form.getByLabel("Nom du client").fill(`Holding ${tag}`);
    await form.getByLabel("Adresse du client").fill(`12 rue ${tag}, 97600 Mamoudzou`);
    await expectNoAxeViolations(page);
    // Enter in a field goes on to the next step, as 'Suivant' does.
    await form.getByLabel("Nom du client").press("Enter");

    // The review: what will be saved, each step with its way back.
    await expectStep(form, 4, "Vérification");
    const review = form.getByTestId("mandate-review");
    await expect(review).toContainText(buyerCode);
    await expect(review).toContainText(/500\s000\s€ - 2\s000\s000\s€/);
    await expect(review).toContainText("976 - Mayotte");
    await review.getByRole("button", { name: "Modifier\u00a0: Client confidentiel" }).click();
    await expectStep(form, 3, "Client confidentiel");
    await expect(form.getByLabel("Nom du client")).toHaveValue(`Holding ${tag}`);
    await nextStep(form);
    await expectStep(form, 4, "Vérification");
    await expectNoAxeViolations(page);
    if (viewport.width === 360) await fits(page);
    await certifyAndCreate(page, form, buyerCode);

    // The card: its figures, one primary action, the others in a menu.
    const card = page.getByRole("article", { name: buyerCode, exact: true });
    const figures = card.getByTestId("mandate-figures");
    await expect(figures.getByRole("definition").first()).not.toHaveText("0");
    await expect(figures).toContainText("Mandats potentiels");
    await expect(figures).toContainText("Demandes reçues à traiter");
    await expect(card.getByRole("link", { name: `Matching du mandat ${buyerCode}` })).toBeVisible();
    await expect(card.getByRole("link", { name: /^Modifier/ })).toBeHidden();
    const menuButton = card.getByText("Autres actions");
    await menuButton.focus();
    await page.keyboard.press("Enter");
    await expect(card.getByRole("link", { name: `Modifier le mandat ${buyerCode}` })).toBeVisible();
    await expect(card.getByRole("button", { name: `Mettre en veille le mandat ${buyerCode}` })).toBeVisible();
    await expectNoAxeViolations(page);
    if (viewport.width === 360) await fits(page);
    await page.keyboard.press("Tab");
    await expect(card.getByRole("link", { name: `Détails du mandat ${buyerCode}` })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(card.getByRole("link", { name: /^Modifier/ })).toBeHidden();
    await expect(card.locator("summary")).toBeFocused();

    // Editing opens the same steps, filled in.
    await card.getByText("Autres actions").click();
    await card.getByRole("link", { name: `Modifier le mandat ${buyerCode}` }).click();
    const edit = page.getByRole("form", { name: "Modifier le mandat" });
    await expectStep(edit, 1, "Type et exclusivité");
    await nextStep(edit);
    await expect(edit.getByLabel("Montant cible minimum")).toHaveValue(`500${NNBSP}000`);
    await expect(edit.getByRole("button", { name: "Retirer 976 - Mayotte" })).toBeVisible();
    await page.getByRole("link", { name: "Retour à mes mandats" }).click();
    await expect(page).toHaveURL(/\/mandates$/);

    // The matching panel: on a phone, a sheet covering the screen.
    await page.getByRole("article", { name: buyerCode, exact: true }).getByRole("link", { name: `Matching du mandat ${buyerCode}` }).click();
    const panel = page.getByRole("dialog", { name: `Matching pour le mandat ${buyerCode}` });
    await expect(panel.getByTestId("potential-match").filter({ hasText: sellerCode })).toBeVisible();
    if (viewport.width === 360) {
      const box = (await panel.boundingBox())!;
      expect(box.x).toBeLessThanOrEqual(1);
      expect(box.y).toBeLessThanOrEqual(1);
      expect(box.width).toBeGreaterThanOrEqual(345);
      expect(box.height).toBeGreaterThanOrEqual(725);
    }
    await expectNoAxeViolations(page);

    await page.context().close();
    await seller.context().close();
  });
}

test("an error in an earlier step brings that step back, from the browser and from the server", async ({ page }) => {
  test.slow();
  const tag = randomBytes(3).toString("hex").toUpperCase();
  await signIn(page, FOUNDER.email, DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  const form = await openNewMandate(page);
  await fillMandate(form, { type: "buyer", code: `ERR-${tag}`, name: `Client ${tag}`, address: `1 rue ${tag}, 75001 Paris` });

  // Back to step 1 through the step list, the end date made equal to the start, then straight
  // to the review: creating brings step 1 back, with the message on the end date.
  await form.getByRole("navigation", { name: "Étapes du mandat" }).getByRole("button", { name: /Type et exclusivité/ }).click();
  await expectStep(form, 1, "Type et exclusivité");
  const start = await form.getByLabel("Date de début").inputValue();
  await form.getByLabel("Date de fin").fill(start);
  await form.getByRole("navigation", { name: "Étapes du mandat" }).getByRole("button", { name: /Vérification/ }).click();
  await expectStep(form, 4, "Vérification");
  await form.getByLabel("Je certifie que ce mandat est exclusif").check();
  await form.getByRole("button", { name: "Créer le mandat" }).click();
  await expectStep(form, 1, "Type et exclusivité");
  await expect(form.getByText("La date de fin doit être postérieure à la date de début")).toBeVisible();
  await expect(form.getByLabel("Date de fin")).toBeFocused();

  // The same from the server: the form posted as a browser without JavaScript would.
  await form.evaluate((f) => HTMLFormElement.prototype.submit.call(f as HTMLFormElement));
  await expect(page).toHaveURL(/\/mandates\?nouveau=1$/);
  const again = page.getByRole("form", { name: "Nouveau mandat" });
  await expectStep(again, 1, "Type et exclusivité");
  await expect(again.getByText("La date de fin doit être postérieure à la date de début")).toBeVisible();
  await expectNoAxeViolations(page);
  // Nothing typed was lost: the criteria and the client are still there.
  await again.getByLabel("Date de fin").fill("2099-12-31");
  await nextStep(again);
  await expect(again.getByRole("button", { name: "Retirer 976 - Mayotte" })).toBeVisible();
  await expect(again.getByLabel("Montant cible minimum")).toHaveValue(`500${NNBSP}000`);
  await nextStep(again);
  await expect(again.getByLabel("Nom du client")).toHaveValue(`Client ${tag}`);
  await nextStep(again);
  await expect(again.getByLabel("Je certifie que ce mandat est exclusif")).toBeChecked();
  await again.getByRole("button", { name: "Créer le mandat" }).click();
  await expect(page.getByText("Mandat créé avec succès")).toBeVisible();
});

test("a buyer mandate without sector, territory or amount is flagged on its review step, before it is created", async ({ page }) => {
  test.slow();
  const tag = randomBytes(3).toString("hex").toUpperCase();
  await signIn(page, FOUNDER.email, DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  const form = await openNewMandate(page);
  await nextStep(form);
  await expectStep(form, 2, "Critères de l’acquéreur");
  // No criterion at all: straight on to the client and the review.
  await nextStep(form);
  await form.getByLabel("Initiales ou nom de code du client").fill(`VIDE-${tag}`);
  await form.getByLabel("Nom du client").fill(`Client ${tag}`);
  await form.getByLabel("Adresse du client").fill(`1 rue ${tag}, 75001 Paris`);
  await nextStep(form);
  await expectStep(form, 4, "Vérification");
  const warning = form.getByTestId("unmatchable-warning");
  await expect(warning).toContainText("Ce mandat ne pourra être rapproché d’aucun mandat cédant");
  await expect(warning).toContainText("un secteur recherché, un territoire ou un montant cible");
  await expectNoAxeViolations(page);
  // Its way back to the criteria; one territory is enough to lift it.
  await warning.getByRole("button", { name: "Compléter les critères" }).click();
  await expectStep(form, 2, "Critères de l’acquéreur");
  await pick(form, "Filtrer les départements ou les régions", "mayotte", "976 - Mayotte");
  await form.getByRole("navigation", { name: "Étapes du mandat" }).getByRole("button", { name: /Vérification/ }).click();
  await expectStep(form, 4, "Vérification");
  await expect(form.getByTestId("unmatchable-warning")).toHaveCount(0);
});

test("a freemium member at 3/3 sees the limit before any field, at 1280 and 360 px", async ({ page }) => {
  test.slow();
  await signIn(page, FREEMIUM.email, DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  const tag = randomBytes(3).toString("hex").toUpperCase();
  for (let i = 0; i < 4; i++) {
    await page.goto("/mandates?nouveau=1");
    const banner = page.getByText(/Compte freemium : \d\/3 mandats utilisés ce semestre/);
    await expect(banner).toBeVisible();
    if (Number((await banner.textContent())?.match(/(\d)\/3/)?.[1]) >= 3) break;
    const form = page.getByRole("form", { name: "Nouveau mandat" });
    await nextStep(form);
    await nextStep(form);
    await form.getByLabel("Initiales ou nom de code du client").fill(`FREE-${tag}-${i}`);
    await form.getByLabel("Nom du client").fill(`Client ${tag}`);
    await form.getByLabel("Adresse du client").fill("1 place du Test, 75001 Paris");
    await nextStep(form);
    await form.getByLabel("Je certifie que ce mandat est exclusif").check();
    await form.getByRole("button", { name: "Créer le mandat" }).click();
    await expect(page.getByText("Mandat créé avec succès")).toBeVisible();
  }
  for (const viewport of [WIDTHS[0].viewport, WIDTHS[1].viewport]) {
    await page.setViewportSize(viewport);
    await page.goto("/mandates");
    await page.getByRole("link", { name: "Nouveau mandat" }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: "Nouveau mandat" })).toBeVisible();
    await expect(page.getByText("Compte freemium : 3/3 mandats utilisés ce semestre")).toBeVisible();
    await expect(page.getByText("Limite atteinte : Les membres freemium peuvent créer maximum 3 mandats par semestre")).toBeVisible();
    await expect(page.getByRole("form", { name: "Nouveau mandat" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Découvrir Premium" })).toBeVisible();
    await expectNoAxeViolations(page);
    await fits(page);
  }
});
