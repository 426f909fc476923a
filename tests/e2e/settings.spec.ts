// Account settings (/parametres): password change, two-factor authentication (enrol, sign in
// with a code or a backup code, disable), sessions, notification e-mail unsubscribe link, data
// export and account deletion. Each test signs up its own account, except the unsubscribe test
// which writes to a seeded member and restores its preference at the end.
import { readFile } from "node:fs/promises";
import { expect, type Page } from "@playwright/test";
import { test } from "./typography-scan";
import {
  adminTotpSecret,
  E2E_ADMIN,
  enableTwoFactor,
  expectNoAxeViolations,
  saveAdminTotpSecret,
  signIn,
  signInAsAdmin,
  signOut,
  signUpAndVerify,
  totpCode,
  unusedTotpCode,
  uniqueEmail,
  waitForMail,
} from "./fixtures";
import { secretFromOtpauthUri } from "../support/totp";

const DEMO_PASSWORD = "demo-transmission-2026";
const PERSONAS = ["Hélène Marchand", "Thomas Garnier", "Julie Morel", "Antoine Leroy"];

async function openSettings(page: Page, section?: string) {
  await page.goto(section ? `/parametres?section=${section}` : "/parametres");
  await expect(page.getByRole("heading", { level: 1, name: "Paramètres du compte" })).toBeVisible();
}

test("change the password: rules, other sessions closed, sign in with the new one", async ({ page, browser }) => {
  const email = uniqueEmail("parametres");
  await signUpAndVerify(page, email, "ancien-secret-1");
  // A second browser signed in to the same account.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, email, "ancien-secret-1");
  await expect(otherPage).toHaveURL(/\/onboarding$/);

  // Each subject has its page: the password is under « Sécurité ».
  await openSettings(page);
  await page.getByRole("navigation", { name: "Pages des paramètres" }).getByRole("link", { name: "Sécurité" }).click();
  await expect(page).toHaveURL(/\/parametres\/securite$/);
  await expectNoAxeViolations(page);
  const form = page.locator("#mot-de-passe");
  await form.getByLabel("Mot de passe actuel").fill("ancien-secret-1");
  await form.getByLabel("Nouveau mot de passe", { exact: true }).fill("abc");
  await form.getByLabel("Confirmer le nouveau mot de passe").fill("abd");
  await form.getByRole("button", { name: "Modifier le mot de passe" }).click();
  await expect(form.getByText("Le mot de passe doit contenir au moins 6 caractères")).toBeVisible();
  await expect(form.getByText("Les mots de passe ne correspondent pas")).toBeVisible();

  await form.getByLabel("Mot de passe actuel").fill("pas-le-bon");
  await form.getByLabel("Nouveau mot de passe", { exact: true }).fill("nouveau-secret-2");
  await form.getByLabel("Confirmer le nouveau mot de passe").fill("nouveau-secret-2");
  await form.getByRole("button", { name: "Modifier le mot de passe" }).click();
  await expect(form.getByText("Mot de passe incorrect")).toBeVisible();

  await form.getByLabel("Mot de passe actuel").fill("ancien-secret-1");
  await form.getByLabel("Nouveau mot de passe", { exact: true }).fill("nouveau-secret-2");
  await form.getByLabel("Confirmer le nouveau mot de passe").fill("nouveau-secret-2");
  await form.getByRole("button", { name: "Modifier le mot de passe" }).click();
  await expect(page.getByText("Mot de passe modifié")).toBeVisible();
  // This browser stays signed in; the other one is signed out.
  await expect(page.getByRole("heading", { level: 1, name: "Paramètres du compte" })).toBeVisible();
  await otherPage.goto("/parametres");
  await expect(otherPage).toHaveURL(/\/auth$/);
  await other.close();

  await signOut(page);
  await signIn(page, email, "ancien-secret-1");
  await expect(page.getByText("Identifiants invalides")).toBeVisible();
  await signIn(page, email, "nouveau-secret-2");
  await expect(page).toHaveURL(/\/onboarding$/);
});

// Issue 26, item 3: without JavaScript the activation used to sign the member out and lose the
// backup codes (the page was rendered for a request whose session had just been replaced).
test("two-factor authentication without JavaScript: same outcome, codes shown once", async ({ page, browser }) => {
  const email = uniqueEmail("deux-facteurs-sans-js");
  const password = "secret-2fa-sans-js";
  await signUpAndVerify(page, email, password);
  const plain = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() });
  const noJs = await plain.newPage();
  await openSettings(noJs, "securite");
  const section = noJs.locator("#securite");
  await section.getByLabel("Mot de passe").fill(password);
  await section.getByRole("button", { name: "Configurer la double authentification" }).click();
  const uri = (await section.getByTestId("totp-uri").textContent())?.trim() ?? "";
  await section.getByLabel("Code à 6 chiffres").fill(await unusedTotpCode(secretFromOtpauthUri(uri)));
  await section.getByRole("button", { name: "Activer la double authentification" }).click();
  // Still signed in, on the settings page, with the ten codes.
  await expect(noJs).toHaveURL(/\/parametres\/securite$/);
  await expect(section.getByText("Activée", { exact: true })).toBeVisible();
  const codes = section.getByRole("list", { name: "Codes de secours" }).getByRole("listitem");
  await expect(codes).toHaveCount(10);
  // Once: a reload no longer shows them.
  await noJs.reload();
  await expect(section.getByText("10 codes de secours restants")).toBeVisible();
  await expect(section.getByRole("list", { name: "Codes de secours" })).toHaveCount(0);
  await plain.close();
});

test("two-factor authentication: enrol, sign in with a code then a backup code, disable", async ({ page }) => {
  const email = uniqueEmail("deux-facteurs");
  const password = "secret-2fa-1";
  await signUpAndVerify(page, email, password);

  // Enrolment: the pending step shows the key and the otpauth link; a wrong code is refused.
  await openSettings(page, "securite");
  const section = page.locator("#securite");
  await expect(section.getByText("Désactivée")).toBeVisible();
  await section.getByLabel("Mot de passe").fill("mauvais-mot-de-passe");
  await section.getByRole("button", { name: "Configurer la double authentification" }).click();
  await expect(section.getByText("Mot de passe incorrect")).toBeVisible();
  await section.getByLabel("Mot de passe").fill(password);
  await section.getByRole("button", { name: "Configurer la double authentification" }).click();
  await expect(section.getByText("Configuration en cours")).toBeVisible();
  await expect(section.getByTestId("totp-secret")).toBeVisible();
  await expect(section.getByRole("link", { name: "ajouter le compte à mon application" })).toHaveAttribute("href", /^otpauth:\/\/totp\//);
  await expectNoAxeViolations(page);
  await section.getByLabel("Code à 6 chiffres").fill("12345");
  await section.getByRole("button", { name: "Activer la double authentification" }).click();
  await expect(section.getByText("Le code doit contenir 6 chiffres")).toBeVisible();
  // Reloading keeps the pending key; cancelling goes back to "off".
  await page.reload();
  await section.getByRole("button", { name: "Annuler la configuration" }).click();
  await expect(page.getByText("Configuration annulée")).toBeVisible();
  await expect(section.getByText("Désactivée")).toBeVisible();

  const { secret, backupCodes } = await enableTwoFactor(page, password);
  expect(backupCodes).toHaveLength(10);
  await expect(section.getByText("Activée", { exact: true })).toBeVisible();
  await expect(section.getByText("10 codes de secours restants")).toBeVisible();
  // Axe on the page with the backup codes, once the success toast has come (the toaster loads with
  // the first toast, a moment after the codes show) and gone.
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Double authentification activée" })).toBeVisible();
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 15_000 });
  await expectNoAxeViolations(page);
  const notice = await waitForMail(page.request, email, /Double authentification activée/);
  expect(notice.text).toContain("La double authentification par application a été activée sur votre compte.");

  // Sign in: password, then the code.
  await signOut(page);
  await signIn(page, email, password);
  await expect(page).toHaveURL(/etape=2fa/);
  await expect(page.getByRole("heading", { name: "Vérification en deux étapes" })).toBeVisible();
  await expectNoAxeViolations(page);
  const now = totpCode(secret);
  await page.getByLabel("Code de vérification").fill(now === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "Vérifier" }).click();
  await expect(page.getByText("Code invalide")).toBeVisible();
  await page.getByLabel("Code de vérification").fill(await unusedTotpCode(secret));
  await page.getByRole("button", { name: "Vérifier" }).click();
  await expect(page).toHaveURL(/\/onboarding$/);

  // Sign in with a backup code instead.
  await signOut(page);
  await signIn(page, email, password);
  await page.getByRole("link", { name: "Utiliser un code de secours" }).click();
  await page.getByLabel("Code de secours").fill(backupCodes[0]);
  await page.getByRole("button", { name: "Vérifier" }).click();
  await expect(page).toHaveURL(/\/onboarding$/);
  await openSettings(page, "securite");
  await expect(section.getByText("9 codes de secours restants")).toBeVisible();

  // Disable (password), then the password alone signs in again.
  await section.getByRole("button", { name: "Désactiver" }).click();
  await expect(section.getByText("Veuillez saisir votre mot de passe").first()).toBeVisible();
  const disableForm = section.locator("form", { has: page.getByRole("button", { name: "Désactiver" }) });
  await disableForm.getByLabel("Mot de passe").fill(password);
  await disableForm.getByRole("button", { name: "Désactiver" }).click();
  await expect(page.getByText("Double authentification désactivée")).toBeVisible();
  await expect(section.getByText("Désactivée")).toBeVisible();
  await signOut(page);
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/onboarding$/);
});

test("sessions: the other browser is listed and can be closed", async ({ page, browser }) => {
  const email = uniqueEmail("sessions");
  await signUpAndVerify(page, email, "secret-sessions");
  const other = await browser.newContext({ userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Firefox/127.0" });
  const otherPage = await other.newPage();
  await signIn(otherPage, email, "secret-sessions");
  await expect(otherPage).toHaveURL(/\/onboarding$/);

  await openSettings(page, "sessions");
  const list = page.getByRole("list", { name: "Sessions actives" });
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await expect(list.getByText("Cette session")).toBeVisible();
  const firefox = list.getByRole("listitem").filter({ hasText: "Firefox sur Windows" });
  await expect(firefox).toBeVisible();
  await firefox.getByRole("button", { name: /^Fermer la session/ }).click();
  await expect(page.getByText("Session fermée")).toBeVisible();
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(page.getByText("Aucune autre session n’est ouverte.")).toBeVisible();

  await otherPage.goto("/parametres");
  await expect(otherPage).toHaveURL(/\/auth$/);
  await other.close();
});

test("notification e-mails carry an unsubscribe link that turns the preference off", async ({ page }) => {
  // A seeded member (demo domain, known password) who is not one of the demo personas other
  // specs rely on. Members created by other specs (other passwords) are skipped.
  const sitemap = await (await page.request.get("/sitemap.xml")).text();
  const profiles = [...sitemap.matchAll(/<loc>[^<]*?(\/consultant\/[^<]+)<\/loc>/g)].map((m) => m[1]);
  let mail: { to: string; text: string } | undefined;
  for (const path of profiles) {
    await page.goto(path);
    const name = (await page.getByRole("heading", { level: 1 }).textContent())?.trim() ?? "";
    if (!name || PERSONAS.includes(name)) continue;
    const subject = `Désabonnement ${Date.now()}`;
    await page.getByRole("button", { name: "Contacter ce professionnel" }).click();
    await page.getByLabel("Nom complet").fill("Visiteur Test");
    await page.getByLabel("Email").fill(uniqueEmail("visiteur"));
    await page.getByLabel("Objet").fill(subject);
    await page.getByLabel("Message").fill("Bonjour, je souhaite céder mon entreprise.");
    await page.getByRole("button", { name: "Envoyer" }).click();
    await expect(page.getByText("Message envoyé avec succès !")).toBeVisible();
    let found: { to: string; subject: string; text: string } | undefined;
    await expect
      .poll(
        async () => {
          const items = (await (await page.request.get("/dev/mailbox.json")).json()) as Array<{ to: string; subject: string; text: string }>;
          found = items.find((m) => m.subject.includes(subject));
          return Boolean(found);
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    if (found!.to.endsWith("@demo.reseau-transmission.fr")) {
      mail = found;
      break;
    }
  }
  expect(mail).toBeTruthy();
  const link = mail!.text.match(/https?:\/\/\S+\/desabonnement\?\S+/)?.[0];
  expect(link).toBeTruthy();

  // Opening the link changes nothing; the button does.
  await page.goto(link!);
  await expect(page.getByRole("heading", { name: "Se désabonner des e-mails" })).toBeVisible();
  await expect(page.locator("strong").getByText("Messages", { exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Confirmer le désabonnement" }).click();
  await expect(page.getByRole("heading", { name: "Désabonnement confirmé" })).toBeVisible();
  await page.goto(link!);
  await expect(page.getByText("Vous ne recevez déjà plus ces e-mails.")).toBeVisible();
  // A forged token is refused.
  await page.goto(link!.replace(/token=[^&]+/, "token=falsifie"));
  await expect(page.getByRole("heading", { name: "Lien de désabonnement invalide" })).toBeVisible();
  await expectNoAxeViolations(page);

  // The member sees the preference off in the settings, and turns it back on.
  await signIn(page, mail!.to, DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard/);
  // Settings are in the member space's account menu.
  await page.locator("summary").filter({ hasText: "Menu du compte" }).click();
  await page.getByRole("link", { name: "Paramètres" }).click();
  await expect(page).toHaveURL(/\/parametres$/);
  await page.getByRole("navigation", { name: "Pages des paramètres" }).getByRole("link", { name: "Notifications" }).click();
  await expect(page).toHaveURL(/\/parametres\/notifications$/);
  const messages = page.getByRole("combobox", { name: "Messages", exact: true });
  await expect(messages).toHaveValue("off");
  await messages.selectOption("immediate");
  await page.getByRole("button", { name: "Enregistrer mes préférences" }).click();
  await expect(page.getByText("Préférences enregistrées")).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Messages", exact: true })).toHaveValue("immediate");
});

test("export my data downloads a JSON file, then delete my account", async ({ page }) => {
  const email = uniqueEmail("suppression");
  await signUpAndVerify(page, email, "secret-depart");
  await openSettings(page, "donnees");

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Télécharger mes données (JSON)" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^mes-donnees-\d{4}-\d{2}-\d{2}\.json$/);
  const exported = JSON.parse(await readFile((await download.path())!, "utf8")) as { format: string; account: { email: string } };
  expect(exported.format).toBe("reseau-transmission.export/v1");
  expect(exported.account.email).toBe(email);

  const danger = page.locator("#donnees");
  await danger.getByLabel("Mot de passe").fill("pas-le-bon");
  await danger.getByRole("button", { name: "Supprimer définitivement mon compte" }).click();
  await expect(danger.getByText("Veuillez confirmer que vous comprenez que la suppression est définitive")).toBeVisible();
  await danger.getByLabel("Je comprends que la suppression de mon compte est définitive.").check();
  await danger.getByLabel("Mot de passe").fill("pas-le-bon");
  await danger.getByRole("button", { name: "Supprimer définitivement mon compte" }).click();
  await expect(danger.getByText("Mot de passe incorrect")).toBeVisible();
  await danger.getByLabel("Je comprends que la suppression de mon compte est définitive.").check();
  await danger.getByLabel("Mot de passe").fill("secret-depart");
  await danger.getByRole("button", { name: "Supprimer définitivement mon compte" }).click();

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText("Votre compte a été supprimé")).toBeVisible();
  await expect(page.getByRole("link", { name: "Connexion" }).first()).toBeAttached();
  await signIn(page, email, "secret-depart");
  await expect(page.getByText("Identifiants invalides")).toBeVisible();
});

test("administrators must use two-factor authentication", async ({ page }) => {
  // The e2e admin is shared by the specs: the first one that needs it enrols it (signInAsAdmin)
  // and keeps its secret for the others. This test checks whichever state it finds.
  if (adminTotpSecret()) {
    await signInAsAdmin(page);
    await openSettings(page, "securite");
    await expect(page.locator("#securite").getByText("Activée", { exact: true })).toBeVisible();
    await expect(page.getByText("Double authentification obligatoire")).toHaveCount(0);
    return;
  }
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).not.toHaveURL(/\/auth/);
  await page.goto("/parametres?section=securite&admin=1");
  await expect(page.getByText("Double authentification obligatoire")).toBeVisible();
  await expect(page.locator("#securite").getByText("Obligatoire pour les administrateurs")).toBeVisible();
  await expect(page.getByRole("link", { name: "Retour à l’administration" })).toBeVisible();
  await expectNoAxeViolations(page);

  const { secret } = await enableTwoFactor(page, E2E_ADMIN.password);
  saveAdminTotpSecret(secret);
  await page.reload();
  await expect(page.getByText("Double authentification obligatoire")).toHaveCount(0);
  await signOut(page);
  await signInAsAdmin(page);
  await expect(page.getByRole("navigation", { name: "Sections de l’administration" }).first()).toBeAttached();
});
