import { type Browser, expect, type Page } from "@playwright/test";
import { readFile } from "node:fs/promises";
import { test } from "./typography-scan";
import { expectNoAxeViolations, fillVerification, firstLink, signUpAndVerify, uniqueEmail, waitForMail } from "./fixtures";

async function fillProfile(page: Page) {
  await page.getByLabel("Prénom").fill("Claire");
  await page.getByLabel("Nom", { exact: true }).fill("Fontaine");
  await page.getByLabel("Société / cabinet").fill("Fontaine Conseil");
  await page.getByLabel("Profession").selectOption({ label: "Conseil en fusions-acquisitions" });
}

/** From /onboarding (profile step) to the payment step, checking each step's rules and axe. */
async function walkToPayment(page: Page, sponsorA: string, sponsorB: string) {
  await expect(page.getByText("0 %")).toBeVisible();
  await expect(page.getByText(/Plus que \d+ places de membre fondateur/).first()).toBeVisible();
  await expectNoAxeViolations(page);
  await fillProfile(page);
  await page.getByRole("button", { name: "Continuer" }).click();
  await expect(page.getByText("Veuillez sélectionner un collège")).toBeVisible();
  await page.getByLabel("Transmission d’entreprises").check();
  await page.getByRole("button", { name: "Continuer" }).click();

  await expect(page.getByRole("heading", { name: "Charte d’engagement", exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Signer la charte et continuer" }).click();
  await expect(page.getByText("Vous devez accepter la charte d'engagement pour continuer")).toBeVisible();
  await page.getByLabel("J’ai lu et j’accepte la charte d’engagement des membres.").check();
  await page.getByRole("button", { name: "Signer la charte et continuer" }).click();

  await expect(page.getByText("20 %")).toBeVisible();
  await expect(page.getByText("Décrivez 2 à 3 opérations récentes sans nommer les entreprises", { exact: false })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByLabel("Votre expérience").fill("Quinze ans de conseil en cession de PME industrielles.");
  await page.getByLabel("Opérations récentes").fill("Cession d’une PME du BTP (2025)\u00a0; reprise d’un distributeur (2024).");
  await page.getByLabel("Profil LinkedIn (facultatif)").fill("pas une url");
  await page.getByRole("button", { name: "Continuer" }).click();
  await expect(page.getByText("Le lien LinkedIn doit être une URL valide", { exact: false })).toBeVisible();
  await page.getByLabel("Profil LinkedIn (facultatif)").fill("https://www.linkedin.com/in/claire-fontaine");
  await page.getByRole("button", { name: "Continuer" }).click();

  // The verification evidence (issue 14): same 40 % as the sponsors step (decision 016).
  await expect(page.getByRole("heading", { name: "Vos justificatifs professionnels" })).toBeVisible();
  await expect(page.getByText("40 %")).toBeVisible();
  await expectNoAxeViolations(page);
  await fillVerification(page, { siren: "732 829 321" });
  await expect(page.getByText("Ce numéro SIREN ou SIRET n’est pas valide\u00a0: vérifiez les chiffres saisis")).toBeVisible();
  await fillVerification(page, { siren: "732 829 320 00074" });

  await expect(page.getByRole("button", { name: "Envoyer les demandes de recommandation" })).toBeVisible();
  await expect(page.getByText("40 %")).toBeVisible();
  await expectNoAxeViolations(page);
  const names = page.getByLabel("Nom complet");
  const emails = page.getByLabel("Email");
  await names.nth(0).fill("Jean Dupont");
  await emails.nth(0).fill("pas-un-email");
  await names.nth(1).fill("Marie Curie");
  await emails.nth(1).fill(sponsorB);
  await page.getByRole("button", { name: "Envoyer les demandes de recommandation" }).click();
  await expect(page.getByText('L\'adresse email "pas-un-email" n\'est pas valide')).toBeVisible();
  await emails.nth(0).fill(`  ${sponsorA.toUpperCase()} `);
  await page.getByRole("button", { name: "Envoyer les demandes de recommandation" }).click();
  await expect(page.getByText("60 %")).toBeVisible();
  await expectNoAxeViolations(page);
}

async function confirmSponsor(browser: Browser, page: Page, sponsorEmail: string) {
  const mail = await waitForMail(page.request, sponsorEmail, /Demande de recommandation/);
  const link = firstLink(mail.text);
  expect(link).toContain("/confirm-recommendation?profile=");
  // The sponsor opens the link in their own browser session.
  const sponsorContext = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const sponsorPage = await sponsorContext.newPage();
  await sponsorPage.goto(link);
  await expectNoAxeViolations(sponsorPage);
  await sponsorPage.getByRole("button", { name: "Confirmer ma recommandation" }).click();
  await expect(sponsorPage.getByRole("heading", { name: "Recommandation confirmée avec succès !" })).toBeVisible();
  await expect(sponsorPage.getByRole("link", { name: "Découvrir l’offre fondateur" })).toBeVisible();
  // A tampered link is refused.
  await sponsorPage.goto(link.replace(/token=[^&]+/, "token=falsifie"));
  await expect(sponsorPage.getByText("Recommandation non trouvée")).toBeVisible();
  await sponsorPage.goto("/confirm-recommendation");
  await expect(sponsorPage.getByText("Paramètres manquants dans le lien")).toBeVisible();
  await sponsorContext.close();
}

test("joining by the free route: every step, sponsor e-mails and confirmations, waiting page", async ({ page, browser }) => {
  // Seven steps with axe checks on each, an upload and two sponsor sessions.
  test.slow();
  const sponsorA = uniqueEmail("parrain-a");
  const sponsorB = uniqueEmail("parrain-b");
  await signUpAndVerify(page, uniqueEmail("candidat"), "secret-123");
  await walkToPayment(page, sponsorA, sponsorB);

  // Going back to correct the details before payment keeps the progress.
  await page.getByRole("link", { name: "Modifier l’étape Expérience" }).click();
  await expect(page.getByLabel("Votre expérience")).toHaveValue("Quinze ans de conseil en cession de PME industrielles.");
  await page.getByLabel("Votre expérience").fill("Vingt ans de conseil en cession de PME industrielles.");
  await page.getByRole("button", { name: "Enregistrer les modifications" }).click();
  await expect(page.getByText("60 %")).toBeVisible();

  await page.getByRole("button", { name: "Commencer gratuitement" }).click();
  await expect(page.getByText("80 %")).toBeVisible();
  await expect(page.getByText("validé sous 5 jours ouvrés", { exact: false })).toBeVisible();
  await expect(page.getByText("En attente de confirmation")).toHaveCount(2);
  await expectNoAxeViolations(page);

  await confirmSponsor(browser, page, sponsorA.toLowerCase());
  await page.reload();
  await expect(page.getByText("En attente de confirmation")).toHaveCount(1);
  await expect(page.getByText(/Confirmée le \d{2}\/\d{2}\/\d{4}/)).toHaveCount(1);
});

test("joining by the paid founding route through the test checkout", async ({ page }) => {
  test.slow();
  await signUpAndVerify(page, uniqueEmail("fondateur"), "secret-123");
  await walkToPayment(page, uniqueEmail("parrain-c"), uniqueEmail("parrain-d"));

  // Cancel first: back on the payment step with the spec's toast.
  await page.getByRole("button", { name: /^Devenir membre fondateur — 250\s€ TTC par an$/ }).click();
  await expect(page.getByText("Paiement de test", { exact: false }).first()).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Annuler" }).click();
  await expect(page).toHaveURL(/\/onboarding$/);
  await expect(page.getByText("Paiement annulé")).toBeVisible();
  await expect(page.getByText("60 %")).toBeVisible();

  await page.getByRole("button", { name: /^Devenir membre fondateur — 250\s€ TTC par an$/ }).click();
  await page.getByRole("button", { name: /Payer 250/ }).click();
  await expect(page).toHaveURL(/\/onboarding\?paiement=confirmation$/);
  await expect(page.getByText("Paiement réussi !")).toBeVisible();
  await expect(page.getByText("Votre adhésion sera activée après validation de votre profil.")).toBeVisible();
  await expect(page.getByText("80 %")).toBeVisible();

  // The payment's invoice (issue 27 §4): from the settings to « Facturation », as a PDF.
  await page.goto("/parametres");
  await page.getByRole("link", { name: "Facturation", exact: true }).click();
  await expect(page).toHaveURL(/\/parametres\/facturation$/);
  await expect(page.getByRole("heading", { level: 2, name: "Mon offre" })).toBeVisible();
  const invoiceLink = page.getByRole("link", { name: /^Facture F-\d{4}-\d{6} \(PDF\)$/ });
  const [download] = await Promise.all([page.waitForEvent("download"), invoiceLink.click()]);
  expect(download.suggestedFilename()).toMatch(/^facture-F-\d{4}-\d{6}\.pdf$/);
  const pdf = await readFile((await download.path())!);
  expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  await expectNoAxeViolations(page);
});
