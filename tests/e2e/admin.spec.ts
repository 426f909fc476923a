// The admin back office in the browser: two-factor gate, profile validation end to end (the new
// member reaches /dashboard and the public directory), suspension, deal review reflected on the
// public profile, recommendation export (clipboard and CSV), audit log, axe on every tab.
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { type Browser, type BrowserContext, expect, type Page } from "@playwright/test";
import { test } from "./typography-scan";
import {
  E2E_ADMIN,
  E2E_SEED,
  enableTwoFactor,
  expectNoAxeViolations,
  fillVerification,
  signIn,
  signUpAndVerify,
  uniqueEmail,
  waitForMail,
} from "./fixtures";

const DEMO_PASSWORD = "demo-transmission-2026";
const FREEMIUM_DEMO = `freemium+s${E2E_SEED.seed}@demo.reseau-transmission.fr`;

const origin = () => new URL(test.info().project.use.baseURL!).origin;

/**
 * Leaves the shared E2E admin as the other specs expect it (password only), through the
 * settings page's own form (better-auth's endpoints are not served over HTTP), even when a test
 * failed half-way.
 */
async function disableTotp(page: Page, password: string) {
  const res = await page.request.post("/parametres", { headers: { origin: origin() }, form: { intent: "disable-2fa", password }, maxRedirects: 0 });
  expect([302, 303], await res.text()).toContain(res.status());
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/parametres\/securite\?admin=1$/);
}

// ---- helpers ---------------------------------------------------------------------------------

async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, locale: "fr-FR", timezoneId: "Europe/Paris" });
  return { context, page: await context.newPage() };
}

/** From the profile step to the waiting page, by the free route (see onboarding.spec.ts). */
async function completeOnboarding(page: Page, person: { firstName: string; lastName: string; company: string }, sponsors: [string, string]) {
  await page.getByLabel("Prénom").fill(person.firstName);
  await page.getByLabel("Nom", { exact: true }).fill(person.lastName);
  await page.getByLabel("Société / cabinet").fill(person.company);
  await page.getByLabel("Profession").selectOption({ label: "Conseil en fusions-acquisitions" });
  await page.getByLabel("Transmission d’entreprises").check();
  await page.getByRole("button", { name: "Continuer" }).click();
  await page.getByLabel("J’ai lu et j’accepte la charte d’engagement des membres.").check();
  await page.getByRole("button", { name: "Signer la charte et continuer" }).click();
  await page.getByLabel("Votre expérience").fill("Douze ans de conseil en cession de PME de services.");
  await page.getByLabel("Opérations récentes").fill("Cession d’une agence de communication (2025)\u00a0; reprise d’un cabinet comptable (2024).");
  await page.getByLabel("Profil LinkedIn (facultatif)").fill("https://www.linkedin.com/in/e2e-admin-validation");
  await page.getByRole("button", { name: "Continuer" }).click();
  await fillVerification(page);
  await page.getByLabel("Nom complet").nth(0).fill("Paul Parrain");
  await page.getByLabel("Email").nth(0).fill(sponsors[0]);
  await page.getByLabel("Nom complet").nth(1).fill("Marie Marraine");
  await page.getByLabel("Email").nth(1).fill(sponsors[1]);
  await page.getByRole("button", { name: "Envoyer les demandes de recommandation" }).click();
  await page.getByRole("button", { name: "Commencer gratuitement" }).click();
  await expect(page.getByText("80 %")).toBeVisible();
}

// ---- the journey -----------------------------------------------------------------------------

test.describe.serial("admin back office", () => {
  let admin: { context: BrowserContext; page: Page };
  const suffix = randomBytes(3).toString("hex").replace(/\d/g, (d) => "abcdefghij"[Number(d)]);
  const candidate = {
    email: uniqueEmail("candidat-admin"),
    password: "secret-123",
    firstName: "Gaëlle",
    lastName: `Valide${suffix}`,
    company: `Cabinet Valide ${suffix}`,
  };
  const sponsors: [string, string] = [uniqueEmail("parrain-x"), uniqueEmail("parrain-y")];
  let candidateSession: { context: BrowserContext; page: Page };

  test.beforeAll(async ({ browser }) => {
    admin = await newPage(browser);
    candidateSession = await newPage(browser);
  });

  test.afterAll(async () => {
    await disableTotp(admin.page, E2E_ADMIN.password);
    await admin.context.close();
    await candidateSession.context.close();
  });

  test("a non-admin is sent to /; an admin must enrol two-factor authentication before /admin", async ({ page }) => {
    await signIn(page, FREEMIUM_DEMO, DEMO_PASSWORD);
    await expect(page).toHaveURL(/\/(onboarding|dashboard)$/);
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/admin/recommandations");
    await expect(page).toHaveURL(/\/$/);
    // A forged POST from a member is refused.
    const forged = await page.request.post("/admin/deals", {
      headers: { origin: origin() },
      form: { dealId: "00000000-0000-4000-8000-000000000000", intent: "validate" },
    });
    expect(forged.status()).toBe(403);

    const a = admin.page;
    await signIn(a, E2E_ADMIN.email, E2E_ADMIN.password);
    // An admin without a member profile goes straight to the two-factor enrolment (issue 16).
    await expect(a).toHaveURL(/\/parametres\/securite\?admin=1$/);
    await a.goto("/admin");
    await expect(a).toHaveURL(/\/parametres\/securite\?admin=1$/);
    await enableTwoFactor(a, E2E_ADMIN.password);
    await a.goto("/admin");
    await expect(a.getByRole("heading", { level: 1, name: "Administration" })).toBeVisible();
    await expect(a.getByRole("heading", { level: 2, name: "Profils" })).toBeVisible();
    await expectNoAxeViolations(a);
  });

  test("an admin validates a member who completed onboarding: the member reaches /dashboard and the directory", async () => {
    // The whole onboarding, then four checklist ticks (one round trip each) before the decision.
    test.slow();
    const c = candidateSession.page;
    await signUpAndVerify(c, candidate.email, candidate.password);
    await completeOnboarding(c, candidate, sponsors);
    // Not validated yet: the member space stays closed.
    await c.goto("/dashboard");
    await expect(c).toHaveURL(/\/onboarding$/);

    const a = admin.page;
    await a.goto("/admin");
    await a.getByLabel("Statut").selectOption({ label: "En attente" });
    await expect(a).toHaveURL(/statut=en-attente/);
    await a.getByLabel("Recherche", { exact: true }).fill(candidate.lastName);
    await a.getByRole("button", { name: "Rechercher" }).click();
    await expect(a.getByText("1 profil", { exact: true })).toBeVisible();
    const row = a.getByRole("row", { name: new RegExp(candidate.lastName) });
    await expect(row.getByText("En attente")).toBeVisible();
    await expect(row.getByText(/^\d{2}\/\d{2}\/\d{4}$/)).toBeVisible();
    await row.getByRole("link", { name: `Voir le profil de ${candidate.firstName} ${candidate.lastName}` }).click();

    const dialog = a.getByRole("dialog");
    await expect(dialog.getByRole("heading", { name: `${candidate.firstName} ${candidate.lastName}` })).toBeVisible();
    await expect(dialog.getByText(candidate.email)).toBeVisible();
    await expect(dialog.getByRole("link", { name: "https://www.linkedin.com/in/e2e-admin-validation" })).toBeVisible();
    await expect(dialog.getByText("Cession d’une agence de communication", { exact: false })).toBeVisible();
    await expect(dialog.getByText("non confirmée")).toHaveCount(2);
    await expect(dialog.getByText("Aucun paiement (démarrage gratuit)")).toBeVisible();
    await expectNoAxeViolations(a);
    // The verification checklist (issue 14): evidence inline, five ticks, or a written reason.
    const checklist = dialog.getByTestId("verification-checklist");
    await expect(checklist.getByText("SIREN\u00a0: 732829320")).toBeVisible();
    await expect(checklist.getByRole("link", { name: /Ouvrir l’attestation/ })).toHaveAttribute("href", /^\/justificatifs\/[0-9a-f-]{36}\/assurance$/);
    // The charter the candidate signed is a fact the platform knows: ticked by the system, with its
    // date, and no button to untick it (issue 30 §3).
    const charter = checklist.getByTestId("verification-step-charter");
    await expect(charter.getByTestId("verification-step-state")).toContainText("Constatée par le système le");
    await expect(charter.getByRole("button")).toHaveCount(0);
    await expect(dialog.getByLabel(/Motif de la validation malgré 4 étapes non cochées/)).toBeVisible();
    // « Valider » is offered at 5/5 only.
    await expect(dialog.getByRole("button", { name: "Valider", exact: true })).toHaveCount(0);
    for (const label of ["Deux parrainages confirmés", "Identité et inscription professionnelle", "SIREN ou SIRET de la structure"]) {
      await a.getByRole("dialog").getByRole("button", { name: `Cocher cette étape\u00a0: ${label}` }).click();
      await expect(a.getByRole("dialog").getByRole("button", { name: `Décocher\u00a0: ${label}` })).toBeVisible();
    }
    await expect(a.getByRole("dialog").getByText("Vérification (4/5 étapes cochées)")).toBeVisible();
    await a.getByRole("dialog").getByLabel(/Motif de la validation malgré une étape non cochée/).fill("Attestation vérifiée par téléphone auprès de l’assureur");
    await a.getByRole("dialog").getByRole("button", { name: "Valider malgré les étapes non cochées" }).click();
    await expect(a.getByText("Profil validé avec succès")).toBeVisible();
    await expect(a.getByRole("dialog")).toHaveCount(0);
    await expect(a.getByText("0 profil", { exact: true })).toBeVisible();

    const welcome = await waitForMail(c.request, candidate.email, /Bienvenue/);
    expect(welcome.text).toContain("/dashboard");
    await c.goto("/onboarding");
    await expect(c).toHaveURL(/\/dashboard$/);
    await expect(c.getByRole("heading", { level: 1, name: "Espace membre" })).toBeVisible();

    await c.goto(`/annuaire?q=${encodeURIComponent(candidate.lastName)}`);
    await expect(c.getByText(`${candidate.firstName} ${candidate.lastName}`).first()).toBeVisible();
    // Validated with the insurance unchecked: no "Profil vérifié" anywhere, and the member reads why (issue 27).
    await expect(c.getByTestId("verified-mark")).toHaveCount(0);
    await c.goto("/dashboard/profil");
    const status = c.getByTestId("insurance-status");
    await expect(status.getByTestId("verified-mark")).toHaveCount(0);
    await expect(status.getByTestId("verification-missing")).toContainText("Assurance responsabilité civile professionnelle");
    await expect(status.getByText("En attente de vérification")).toBeVisible();
  });

  test("suspending a member signs them out and closes the member space; reinstating reopens it", async () => {
    const a = admin.page;
    await a.goto(`/admin?q=${encodeURIComponent(candidate.lastName)}`);
    await a.getByRole("link", { name: `Voir le profil de ${candidate.firstName} ${candidate.lastName}` }).click();
    const dialog = a.getByRole("dialog");
    await dialog.getByLabel("Motif de la suspension (facultatif)").fill("Vérification d’une réclamation");
    await dialog.getByRole("button", { name: "Suspendre" }).click();
    await expect(a.getByText("Membre suspendu", { exact: true })).toBeVisible();
    await expect(a.getByRole("row", { name: new RegExp(candidate.lastName) }).getByText("Suspendu")).toBeVisible();

    const c = candidateSession.page;
    await c.goto("/dashboard");
    await expect(c).toHaveURL(/\/auth$/);
    await signIn(c, candidate.email, candidate.password);
    await expect(c).toHaveURL(/\/onboarding$/);
    await expect(c.getByRole("heading", { level: 1, name: "Compte suspendu" })).toBeVisible();
    await expectNoAxeViolations(c);
    await c.goto(`/annuaire?q=${encodeURIComponent(candidate.lastName)}`);
    await expect(c.getByText("Aucun professionnel trouvé")).toBeVisible();

    await a.getByRole("link", { name: `Voir le profil de ${candidate.firstName} ${candidate.lastName}` }).click();
    await a.getByRole("dialog").getByRole("button", { name: "Réintégrer" }).click();
    await expect(a.getByText("Membre réintégré", { exact: true })).toBeVisible();
    await c.goto("/onboarding");
    await expect(c).toHaveURL(/\/dashboard$/);
  });

  test("deal review: validating a pending deal puts it on the public profile, anonymised; a rejection takes a reason", async () => {
    const a = admin.page;
    await a.goto("/admin/deals");
    await expect(a.getByRole("heading", { level: 2, name: "Transactions en attente de validation" })).toBeVisible();
    await expectNoAxeViolations(a);
    const row = a.getByRole("row", { name: new RegExp(E2E_SEED.premium.name) }).first();
    const transaction = (await row.getByRole("cell").nth(2).textContent())!.trim();
    expect(transaction.length).toBeGreaterThan(3);
    await row.getByRole("link", { name: /^Examiner la transaction/ }).click();
    const dialog = a.getByRole("dialog");
    await expect(dialog.getByRole("heading", { name: `Transaction de ${E2E_SEED.premium.name}` })).toBeVisible();
    await expect(dialog.getByRole("link", { name: "Fermer" })).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Rejeter" })).toBeVisible();
    await expectNoAxeViolations(a);
    await dialog.getByRole("button", { name: "Valider" }).click();
    await expect(a.getByText("Deal validé avec succès")).toBeVisible();
    await expect(a.getByRole("cell", { name: transaction, exact: true })).toHaveCount(0);

    // The public profile lists it among the certified transactions.
    await a.goto(`/annuaire?q=${encodeURIComponent(E2E_SEED.premium.name)}`);
    await a.getByRole("link", { name: new RegExp(E2E_SEED.premium.name) }).first().click();
    await expect(a).toHaveURL(/\/consultant\//);
    await expect(a.getByRole("heading", { name: "Transactions M&A Certifiées" })).toBeVisible();
    // Anonymised by default (issue 27 §5): the public reads the confidential line, never the parties.
    await expect(a.getByText("Opération confidentielle", { exact: false }).first()).toBeVisible();
    await expect(a.getByText(transaction, { exact: true })).toHaveCount(0);

    // Another pending deal, rejected with a reason.
    await a.goto("/admin/deals");
    const other = a.getByRole("row").filter({ has: a.getByRole("link", { name: /^Examiner la transaction/ }) }).first();
    if ((await other.count()) > 0) {
      await other.getByRole("link", { name: /^Examiner la transaction/ }).click();
      await a.getByRole("dialog").getByLabel("Motif du rejet (facultatif)").fill("Justificatif manquant");
      await a.getByRole("dialog").getByRole("button", { name: "Rejeter" }).click();
      await expect(a.getByText("Deal rejeté avec succès")).toBeVisible();
    }
  });

  test("recommendations: search, e-mails to the clipboard, CSV download", async () => {
    const a = admin.page;
    await admin.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: origin() });
    await a.goto("/admin/recommandations");
    await expect(a.getByRole("heading", { level: 2, name: "Recommandations" })).toBeVisible();
    await expect(a.getByText("Confirmées", { exact: true })).toBeVisible();
    await expectNoAxeViolations(a);

    await a.getByLabel("Recherche", { exact: true }).fill(candidate.lastName);
    await a.getByRole("button", { name: "Rechercher" }).click();
    await expect(a.getByText("2 recommandations", { exact: true })).toBeVisible();
    await expect(a.getByRole("cell", { name: sponsors[0] })).toBeVisible();

    await a.getByRole("button", { name: "Exporter les emails" }).click();
    await expect(a.getByText("Emails copiés dans le presse-papier")).toBeVisible();
    const copied = await a.evaluate(() => navigator.clipboard.readText());
    expect(copied.split(", ").sort()).toEqual([...sponsors].sort());

    const [download] = await Promise.all([a.waitForEvent("download"), a.getByRole("link", { name: "Télécharger le CSV" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^recommandations-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path())!, "utf8");
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv).toContain("Recommandé par,Email,Membre recommandé,Société,Statut,Date de création,Date de confirmation");
    for (const s of sponsors) expect(csv).toContain(s);
    expect(csv).toContain(`${candidate.firstName} ${candidate.lastName}`);
  });

  test("the audit log lists the decisions and exports, newest first, filterable by action", async () => {
    const a = admin.page;
    await a.goto("/admin/journal");
    await expect(a.getByRole("heading", { level: 2, name: "Journal d’administration" })).toBeVisible();
    const firstRow = a.getByRole("row").nth(1);
    await expect(firstRow).toContainText("Export CSV des recommandations");
    await expect(firstRow).toContainText(E2E_ADMIN.email);
    for (const label of ["Profil validé", "Membre suspendu", "Membre réintégré", "Transaction validée", "Export des e-mails des parrains"]) {
      await expect(a.getByRole("cell", { name: label, exact: true }).first()).toBeVisible();
    }
    await expectNoAxeViolations(a);
    await a.getByLabel("Action", { exact: true }).selectOption({ label: "Profil validé" });
    await expect(a).toHaveURL(/action=profile\.validate/);
    await expect(a.getByRole("cell", { name: "Transaction validée", exact: true })).toHaveCount(0);
    await expect(a.getByRole("cell", { name: `${candidate.firstName} ${candidate.lastName} (${candidate.company})` })).toBeVisible();
  });

  test("without JavaScript: the detail opens as a panel, decisions are plain POSTs, e-mails show in a text box", async ({ browser }) => {
    const context = await browser.newContext({
      baseURL: test.info().project.use.baseURL,
      storageState: await admin.context.storageState(),
      javaScriptEnabled: false,
    });
    const p = await context.newPage();
    const fullName = `${candidate.firstName} ${candidate.lastName}`;
    await p.goto(`/admin?q=${encodeURIComponent(candidate.lastName)}`);
    await p.getByRole("link", { name: `Voir le profil de ${fullName}` }).click();
    const panel = p.getByRole("region", { name: fullName });
    await expect(panel.getByText(candidate.email)).toBeVisible();
    await panel.getByRole("button", { name: "Suspendre" }).click();
    await expect(p.getByRole("row", { name: new RegExp(candidate.lastName) }).getByText("Suspendu")).toBeVisible();
    await p.getByRole("link", { name: `Voir le profil de ${fullName}` }).click();
    await p.getByRole("region", { name: fullName }).getByRole("button", { name: "Réintégrer" }).click();
    await expect(p.getByRole("row", { name: new RegExp(candidate.lastName) }).getByText("Validé")).toBeVisible();

    await p.goto(`/admin/recommandations?q=${encodeURIComponent(candidate.lastName)}`);
    await p.getByRole("button", { name: "Exporter les emails" }).click();
    const box = p.getByLabel("E-mails des parrains (séparés par des virgules)");
    await expect(box).toHaveValue([...sponsors].sort().join(", "));
    await context.close();
  });
});
