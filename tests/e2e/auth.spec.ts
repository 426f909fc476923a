import { expect } from "@playwright/test";
import { test } from "./typography-scan";
import {
  expectNoAxeViolations,
  firstLink,
  signIn,
  signInAsAdmin,
  signOut,
  signUp,
  signUpAndVerify,
  uniqueEmail,
  waitForMail,
} from "./fixtures";

test("sign up, confirm by e-mail, land signed in on /onboarding", async ({ page }) => {
  const email = uniqueEmail();
  await signUpAndVerify(page, email, "secret-123");
  await expect(page.getByRole("heading", { name: "Rejoindre le réseau" })).toBeVisible();
  await expect(page.getByText("Créez votre profil")).toBeVisible();
  // Signed in: onboarding is inside the application's frame, whose account menu offers the
  // membership and sign-out; /auth sends back to /onboarding.
  const account = page.locator("summary").filter({ hasText: "Menu du compte" });
  await account.click();
  await expect(page.getByRole("link", { name: "Mon adhésion" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Déconnexion" })).toBeVisible();
  await expect(page.locator("[data-slot=app-footer]")).toHaveCount(1);
  await page.goto("/auth");
  await expect(page).toHaveURL(/\/onboarding$/);
  // Sign out, then sign in again with the password.
  await account.click();
  await page.getByRole("button", { name: "Déconnexion" }).click();
  await expect(page.getByRole("link", { name: "Connexion" }).first()).toBeAttached();
  await signIn(page, email, "secret-123");
  await expect(page).toHaveURL(/\/onboarding$/);
});

test("sign-up rules: short password, mismatch, existing e-mail", async ({ page }) => {
  await page.goto("/auth?mode=inscription");
  await page.getByLabel("Email").fill(uniqueEmail());
  await page.getByLabel("Mot de passe", { exact: true }).fill("abc");
  await page.getByLabel("Confirmer le mot de passe").fill("abd");
  await page.getByRole("button", { name: "Créer mon compte" }).click();
  await expect(page.getByText("Le mot de passe doit contenir au moins 6 caractères")).toBeVisible();
  await expect(page.getByText("Les mots de passe ne correspondent pas")).toBeVisible();

  const email = uniqueEmail();
  await signUp(page, email, "secret-123");
  await expect(page.getByText("Inscription réussie !", { exact: false })).toBeVisible();
  await signUp(page, email, "secret-456");
  await expect(page.getByText("Cette adresse email est déjà utilisée")).toBeVisible();
});

test("wrong password → 'Identifiants invalides'", async ({ page }) => {
  const email = uniqueEmail();
  await signUpAndVerify(page, email, "secret-123");
  await signOut(page);
  await signIn(page, email, "wrong-password");
  await expect(page.getByText("Identifiants invalides")).toBeVisible();
  await signIn(page, uniqueEmail("inconnu"), "whatever-1");
  await expect(page.getByText("Identifiants invalides")).toBeVisible();
});

test("sign-in before confirming the e-mail is refused with a French explanation", async ({ page }) => {
  const email = uniqueEmail();
  await signUp(page, email, "secret-123");
  await expect(page.getByText("Inscription réussie !", { exact: false })).toBeVisible();
  await signIn(page, email, "secret-123");
  await expect(page.getByText("Votre adresse e-mail n’est pas encore confirmée", { exact: false })).toBeVisible();
});

test("password reset by e-mail, end to end", async ({ page }) => {
  const email = uniqueEmail();
  await signUpAndVerify(page, email, "old-secret-1");
  await signOut(page);
  await page.goto("/auth");
  await page.getByRole("link", { name: "Mot de passe oublié\u00a0?" }).click();
  await expect(page.getByRole("heading", { name: "Mot de passe oublié\u00a0?" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Recevoir le lien" }).click();
  await expect(page.getByText("Si un compte existe pour cette adresse", { exact: false })).toBeVisible();
  const mail = await waitForMail(page.request, email, /Réinitialisation/);
  await page.goto(firstLink(mail.text));
  await expect(page).toHaveURL(/\/auth\/nouveau-mot-de-passe\?token=/);
  await page.getByLabel("Nouveau mot de passe").fill("new-secret-2");
  await page.getByLabel("Confirmer le mot de passe").fill("new-secret-2");
  await page.getByRole("button", { name: "Enregistrer le mot de passe" }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByText("Votre mot de passe a été modifié", { exact: false })).toBeVisible();
  await signIn(page, email, "old-secret-1");
  await expect(page.getByText("Identifiants invalides")).toBeVisible();
  await signIn(page, email, "new-secret-2");
  await expect(page).toHaveURL(/\/onboarding$/);
  // A used link cannot be replayed.
  await signOut(page);
  await page.goto(firstLink(mail.text));
  await expect(page.getByText("Ce lien de réinitialisation est invalide ou a expiré", { exact: false })).toBeVisible();
});

test("an admin created by admin:create sees the Admin link and reaches /admin; others are sent to /", async ({ page }) => {
  // Admins must use two-factor authentication: signInAsAdmin enrols the e2e admin on first use.
  await signInAsAdmin(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  // The public header's Admin link; the back office has its own frame, its sections as the
  // navigation (no one-item member navigation), 'Profils' the current one.
  await page.goto("/");
  await page.getByRole("link", { name: "Admin", exact: true }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole("heading", { name: "Administration" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Sections de l’administration" }).getByRole("link", { name: "Profils" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(page.getByRole("navigation", { name: "Sections de l’espace membre" })).toHaveCount(0);
  await signOut(page);

  const email = uniqueEmail();
  await signUpAndVerify(page, email, "secret-123");
  await expect(page.getByRole("link", { name: "Admin" })).toHaveCount(0);
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/$/);
  // Signed out, /dashboard sends to /auth.
  await signOut(page);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/auth$/);
});

test("unknown path shows the 404 page", async ({ page }) => {
  const response = await page.goto("/cette-page-n-existe-pas");
  expect(response?.status()).toBe(404);
  await expect(page.getByText("404", { exact: true })).toBeVisible();
  await expect(page.getByText("Oops! Page not found")).toBeVisible();
  await page.getByRole("link", { name: "Retour à l’accueil" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("the header works at 360 px with the mobile menu", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/");
  await page.locator("summary").filter({ hasText: "Ouvrir le menu" }).click();
  const mobileNav = page.getByRole("navigation", { name: "Navigation mobile" });
  await expect(mobileNav.getByRole("link", { name: "Annuaire" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Devenir membre" }).last()).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  expect(overflow).toBe(false);
  await expect(page.getByText(`© ${new Date().getFullYear()}`, { exact: false })).toBeVisible();
});

test("no accessibility violations on /auth, sign-up and the 404 page", async ({ page }) => {
  await page.goto("/auth");
  await expectNoAxeViolations(page);
  await page.goto("/auth?mode=inscription");
  await expectNoAxeViolations(page);
  await page.goto("/nulle-part");
  await expectNoAxeViolations(page);
});
