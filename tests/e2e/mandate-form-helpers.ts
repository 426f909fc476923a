// Walking the stepped mandate form (issue 15 §4) in the browser: type and exclusivity →
// criteria or company → confidential client → review.
import { expect, type Locator, type Page } from "@playwright/test";

export type NewMandate = {
  type: "buyer" | "seller";
  code: string;
  name: string;
  address: string;
};

/** 'Nouveau mandat' from the list: the form page. */
export async function openNewMandate(page: Page): Promise<Locator> {
  await page.goto("/mandates");
  await page.getByRole("link", { name: "Nouveau mandat" }).first().click();
  await expect(page).toHaveURL(/\/mandates\?nouveau=1$/);
  const form = page.getByRole("form", { name: "Nouveau mandat" });
  await expect(form).toBeVisible();
  return form;
}

export async function expectStep(form: Locator, n: number, title: string) {
  const nav = form.getByRole("navigation", { name: "Étapes du mandat" });
  await expect(nav.locator('[aria-current="step"]')).toContainText(title);
  const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  await expect(form.getByRole("heading", { level: 2, name: new RegExp(`^Étape ${n} sur 4\\s*:\\s*${escaped}$`) })).toBeVisible();
}

export async function nextStep(form: Locator) {
  await form.getByRole("button", { name: "Suivant" }).click();
}

/** Ticks a choice of a searchable multi-select after narrowing it with its filter. */
export async function pick(form: Locator, filterLabel: string, query: string, option: string) {
  await form.getByLabel(filterLabel).fill(query);
  await form.getByRole("checkbox", { name: option }).check();
  await form.getByLabel(filterLabel).fill("");
}

/** Fills every step of the form for `m` (the 100 % pair: sector U, Mayotte) and stops on the review. */
export async function fillMandate(form: Locator, m: NewMandate) {
  await expectStep(form, 1, "Type et exclusivité");
  if (m.type === "seller") await form.getByLabel("Mandat cédant").check();
  await nextStep(form);
  if (m.type === "buyer") {
    await expectStep(form, 2, "Critères de l’acquéreur");
    await pick(form, "Filtrer les secteurs", "extra", "U - Activités extra-territoriales");
    await pick(form, "Filtrer les départements ou les régions", "mayotte", "976 - Mayotte");
    await form.getByLabel("Montant cible minimum").fill("500000");
    await form.getByLabel("Montant cible maximum").fill("2000000");
    await form.getByLabel("Apport minimum", { exact: true }).fill("100000");
    await form.getByLabel("Apport maximum", { exact: true }).fill("300000");
  } else {
    await expectStep(form, 2, "Entreprise cédée");
    await form.getByLabel("Secteur d’activité").selectOption("U");
    await form.getByLabel("Localisation (département)").selectOption("976");
    await form.getByLabel("Valorisation").fill("1200000");
    await form.getByLabel("Apport requis minimum").fill("200000");
    await form.getByLabel("Apport requis maximum").fill("400000");
    await form.getByLabel("Délai du projet").selectOption("6_months");
  }
  await nextStep(form);
  await expectStep(form, 3, "Client confidentiel");
  await form.getByLabel("Initiales ou nom de code du client").fill(m.code);
  await form.getByLabel("Nom du client").fill(m.name);
  await form.getByLabel("Adresse du client").fill(m.address);
  await nextStep(form);
  await expectStep(form, 4, "Vérification");
}

/** Certifies the exclusivity and creates the mandate: back on the list with its card. */
export async function certifyAndCreate(page: Page, form: Locator, code: string) {
  const submit = form.getByRole("button", { name: "Créer le mandat" });
  // Disabled until the certification is ticked, and it says why.
  await expect(submit).toBeDisabled();
  await expect(submit).toHaveAccessibleDescription("Cochez «\u00a0Je certifie que ce mandat est exclusif\u00a0» pour créer le mandat.");
  await form.getByLabel("Je certifie que ce mandat est exclusif").check();
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page.getByText("Mandat créé avec succès")).toBeVisible();
  await expect(page).toHaveURL(/\/mandates$/);
  await expect(page.getByRole("heading", { name: code, exact: true })).toBeVisible();
}
