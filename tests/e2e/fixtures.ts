import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { secretFromOtpauthUri, totpCode, unusedTotpCode } from "../support/totp";

/** The 6-digit TOTP code of a base32 secret (as shown on /parametres), now or at `at` (ms). */
export { totpCode, unusedTotpCode };

/** Created by `npm run admin:create` before the server starts (playwright.config.ts). */
export const E2E_ADMIN = { email: "admin-e2e@exemple.fr", password: "admin-e2e-secret" };

/** Demo data loaded by `npm run seed` before the server starts (playwright.config.ts). */
export const E2E_SEED = {
  members: 40,
  seed: 7,
  /** The premium demo persona (scripts/seed-lib.ts), a validated member with a public profile. */
  premium: { name: "Thomas Garnier", email: "premium+s7@demo.reseau-transmission.fr" },
} as const;

export function uniqueEmail(prefix = "membre") {
  return `${prefix}-${randomBytes(4).toString("hex")}@exemple.fr`;
}

type MailboxItem = { id: number; to: string; subject: string; text: string; html: string; createdAt: string };

/** Waits for an e-mail to `to` in the built-in mailbox and returns it. */
export async function waitForMail(request: APIRequestContext, to: string, subject?: RegExp): Promise<MailboxItem> {
  let found: MailboxItem | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get(`/dev/mailbox.json?to=${encodeURIComponent(to)}`);
        if (!res.ok()) return false;
        const items = (await res.json()) as MailboxItem[];
        found = items.find((m) => m.to === to && (!subject || subject.test(m.subject)));
        return Boolean(found);
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return found!;
}

export function firstLink(text: string): string {
  const match = text.match(/https?:\/\/[^\s<>"')]+/);
  if (!match) throw new Error(`no link in: ${text}`);
  return match[0];
}

export async function signUp(page: Page, email: string, password: string) {
  await page.goto("/auth?mode=inscription");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Mot de passe", { exact: true }).fill(password);
  await page.getByLabel("Confirmer le mot de passe").fill(password);
  await page.getByRole("button", { name: "Créer mon compte" }).click();
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/auth");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Mot de passe", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Se connecter" }).click();
}

/** Signs up and confirms the e-mail: the user ends up signed in on /onboarding. */
export async function signUpAndVerify(page: Page, email: string, password: string) {
  await signUp(page, email, password);
  await expect(page.getByText("Inscription réussie ! Vérifiez votre email pour confirmer votre compte.")).toBeVisible();
  const mail = await waitForMail(page.request, email, /Confirmez/);
  await page.goto(firstLink(mail.text));
  await expect(page).toHaveURL(/\/onboarding$/);
}

export async function expectNoAxeViolations(page: Page) {
  // Colours are judged once the page is still: a toast fading in has, for a moment, too little
  // contrast (finite animations only; a spinner may turn for ever).
  const settle = () =>
    page.waitForFunction(() =>
      document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getComputedTiming().endTime === Infinity),
    );
  await settle();
  let results = await new AxeBuilder({ page }).analyze();
  // A toast that appeared during the analysis (the toaster loads with the first toast) was judged
  // while fading in, or is already gone: judge the page again once it is still. Any other
  // violation stands, and the second analysis must be clean.
  const targets = results.violations.flatMap((v) => v.nodes.map((n) => String(n.target[0] ?? "")));
  const inToasts =
    targets.length > 0 &&
    (await page.evaluate(
      (selectors) =>
        selectors.every((s) => {
          const node = document.querySelector(s);
          return node === null || node.closest("[data-sonner-toast]") != null;
        }),
      targets,
    ));
  if (inToasts) {
    await page.waitForTimeout(500);
    await settle();
    results = await new AxeBuilder({ page }).analyze();
  }
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

/**
 * Enrols the signed-in account in two-factor authentication through /parametres and returns
 * its base32 secret, so that later sign-ins can answer with `totpCode(secret)`. Use it for the
 * admin (requireAdminWithTwoFactor sends an admin without TOTP to /parametres/securite).
 */
export async function enableTwoFactor(page: Page, password: string): Promise<{ secret: string; backupCodes: string[] }> {
  await page.goto("/parametres/securite");
  const section = page.locator("#securite");
  await section.getByLabel("Mot de passe").fill(password);
  await section.getByRole("button", { name: "Configurer la double authentification" }).click();
  const uri = (await section.getByTestId("totp-uri").textContent({ timeout: 10_000 }))?.trim() ?? "";
  // The QR code beside the key (issue 15 §5): a server-rendered SVG.
  await expect(section.getByRole("img", { name: "QR code de configuration de la double authentification" }).locator("svg")).toBeVisible();
  const secret = secretFromOtpauthUri(uri);
  await section.getByLabel("Code à 6 chiffres").fill(await unusedTotpCode(secret));
  await section.getByRole("button", { name: "Activer la double authentification" }).click();
  const codes = section.getByRole("list", { name: "Codes de secours" }).getByRole("listitem");
  await expect(codes.first()).toBeVisible();
  return { secret, backupCodes: (await codes.allTextContents()).map((c) => c.trim()) };
}

/** Signs in an account that has two-factor authentication (password, then a TOTP code). */
export async function signInWithTwoFactor(page: Page, email: string, password: string, secret: string) {
  await signIn(page, email, password);
  await expect(page).toHaveURL(/etape=2fa/);
  await page.getByLabel("Code de vérification").fill(await unusedTotpCode(secret));
  await page.getByRole("button", { name: "Vérifier" }).click();
}

// The e2e admin and two-factor authentication. Admin pages guarded by requireAdminWithTwoFactor
// send an admin without TOTP to /parametres to enrol. The first spec that needs the admin enrols
// it and keeps the secret in the run's data directory (a fresh database per run); every later
// admin sign-in answers with a code from that secret. Always sign the admin in with
// signInAsAdmin once the gate is on.
// Each server of the run (a project of playwright.config.ts) has its own database, so its own secret.
function adminSecretFile() {
  return path.join(process.env.E2E_DATA_DIR ?? os.tmpdir(), `e2e-admin-totp-secret-${test.info().project.name}.txt`);
}

/** The e2e admin's TOTP secret when it was enrolled earlier in this run, else null. */
export function adminTotpSecret(): string | null {
  const file = adminSecretFile();
  return existsSync(file) ? readFileSync(file, "utf8").trim() || null : null;
}

export function saveAdminTotpSecret(secret: string) {
  writeFileSync(adminSecretFile(), `${secret}\n`, { mode: 0o600 });
}

/** Signs the e2e admin in, enrolling it in two-factor authentication on first use. */
export async function signInAsAdmin(page: Page) {
  const secret = adminTotpSecret();
  if (secret) {
    await signInWithTwoFactor(page, E2E_ADMIN.email, E2E_ADMIN.password, secret);
    await expect(page).not.toHaveURL(/\/auth/);
    return;
  }
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(page).not.toHaveURL(/\/auth/);
  const enrolled = await enableTwoFactor(page, E2E_ADMIN.password);
  saveAdminTotpSecret(enrolled.secret);
}

// The demo personas of the seed (scripts/seed-lib.ts: demoLoginEmail, DEFAULT_DEMO_PASSWORD).
export const DEMO_PASSWORD = "demo-transmission-2026";
export const demoLogin = (kind: "fondateur" | "premium" | "freemium") => `${kind}+s${E2E_SEED.seed}@demo.reseau-transmission.fr`;
export const FOUNDER = { email: demoLogin("fondateur"), name: "Hélène Marchand" };
export const PREMIUM = { email: demoLogin("premium"), name: E2E_SEED.premium.name };
export const FREEMIUM = { email: demoLogin("freemium"), name: "Julie Morel" };

/** Signs a demo persona in (after clearing the context's cookies); they land on /dashboard. */
export async function signInAs(page: Page, email: string) {
  await page.context().clearCookies();
  await signIn(page, email, DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** Signs out from wherever the page is: the member space's account menu, or the public header. */
export async function signOut(page: Page) {
  const account = page.locator("summary").filter({ hasText: "Menu du compte" });
  // Wait for the page to show one of its frames (the application's account menu, or the public
  // header's sign-out) before choosing: right after a navigation neither is there yet.
  await expect(account.or(page.getByRole("button", { name: "Déconnexion" })).first()).toBeVisible();
  if (await account.isVisible()) await account.click();
  await page.getByRole("button", { name: "Déconnexion" }).first().click();
  await expect(page.getByRole("link", { name: "Connexion" }).first()).toBeAttached();
}

/** Elements sticking out of the viewport on the right, except inside a scrolling container. */
export function overflowingElements(): string[] {
  if (document.documentElement.scrollWidth <= window.innerWidth) return [];
  const scrolls = (el: Element) => ["auto", "scroll", "hidden", "clip"].includes(getComputedStyle(el).overflowX);
  const out: string[] = [];
  for (const el of Array.from(document.body.querySelectorAll("*"))) {
    if (el.getBoundingClientRect().right <= window.innerWidth + 1) continue;
    let inside = false;
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) if (scrolls(a)) inside = true;
    if (!inside) out.push(`${el.tagName.toLowerCase()} ${(el.textContent ?? "").trim().slice(0, 40)}`);
  }
  return out.slice(0, 10);
}

/** axe at desktop width and at 360 px, where nothing may overflow horizontally. */
export async function checkAccessibility(page: Page) {
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 360, height: 800 });
  await expectNoAxeViolations(page);
  expect(await page.evaluate(overflowingElements)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** A one-page PDF for the insurance certificate upload (issue 14). */
export async function certificatePdfBuffer(): Promise<Buffer> {
  const { PDFDocument, StandardFonts } = await import("pdf-lib");
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  page.drawText("Attestation d'assurance RC professionnelle", { x: 50, y: 780, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await doc.save());
}

/** A year ahead, "YYYY-MM-DD" (the certificate's end date). */
export function aYearAhead(): string {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d.toISOString().slice(0, 10);
}

/**
 * The verification evidence step for a "Conseil en fusions-acquisitions" applicant (ORIAS number),
 * then "Continuer": a SIREN with a valid key, the certificate, its insurer, policy and end date.
 */
export async function fillVerification(page: Page, options: { siren?: string; submit?: boolean } = {}) {
  await page.getByLabel("SIREN ou SIRET de votre structure").fill(options.siren ?? "732829320");
  await page.getByLabel("Numéro ORIAS ou de carte professionnelle (CCI)").fill("12345678");
  await page.getByLabel(/Attestation d’assurance \(PDF/).setInputFiles({ name: "attestation-rc-pro.pdf", mimeType: "application/pdf", buffer: await certificatePdfBuffer() });
  await page.getByLabel("Assureur").fill("MMA");
  await page.getByLabel("Numéro de contrat").fill("RCP-2026-0042");
  await page.getByLabel("Fin de validité de l’attestation").fill(aYearAhead());
  if (options.submit !== false) await page.getByRole("button", { name: "Continuer" }).click();
}

/**
 * The time of a journey in which two members take turns (two browser contexts, mails, several
 * pages each): on two cores shared with the rest of the suite such a journey took up to 2.7 min.
 */
export const TWO_MEMBER_JOURNEY_MS = 360_000;

export type GuestInvitation = {
  email: string;
  firstName: string;
  lastName: string;
  role: "expert_comptable" | "avocat" | "notaire" | "banque" | "conseil" | "autre";
  side: "cedant" | "acquereur" | "commun";
  rights: { voir: boolean; telecharger: boolean; deposer: boolean };
};

/**
 * A professional outside the network admitted to a file: `inviter` (a founder, on the file's
 * pages) invites them, the guest creates an account from the e-mail, confirms it and joins,
 * `approver` (the other founder) approves, and the guest signs the undertaking. The guest's page
 * ends on the shared file, clients shown; its path is returned.
 */
export async function admitGuest(inviter: Page, approver: Page, guest: Page, filePath: string, invitation: GuestInvitation): Promise<string> {
  await inviter.goto(`${filePath}/intervenants`);
  const form = inviter.getByRole("form", { name: "Inviter un professionnel" });
  await form.getByLabel("Adresse e-mail").fill(invitation.email);
  await form.getByLabel("Rôle").selectOption(invitation.role);
  await form.getByLabel("Côté", { exact: true }).selectOption(invitation.side);
  for (const [right, label] of [["voir", "Voir"], ["telecharger", "Télécharger"], ["deposer", "Déposer"]] as const) {
    await form.getByLabel(label, { exact: true }).setChecked(invitation.rights[right]);
  }
  await form.getByRole("button", { name: "Envoyer l’invitation" }).click();
  await expect(inviter.getByTestId("participant-item").filter({ hasText: invitation.email })).toContainText("Invitation envoyée");

  const mail = await waitForMail(guest.request, invitation.email, /Invitation/);
  await guest.goto(firstLink(mail.text));
  await guest.getByLabel("Prénom").fill(invitation.firstName);
  await guest.getByLabel("Nom", { exact: true }).fill(invitation.lastName);
  const password = `invite-${randomBytes(6).toString("hex")}`;
  await guest.getByLabel("Mot de passe", { exact: true }).fill(password);
  await guest.getByLabel("Confirmation du mot de passe").fill(password);
  await guest.getByRole("button", { name: "Créer mon compte invité" }).click();
  await expect(guest.getByText("Vérifiez votre messagerie")).toBeVisible();
  const confirmation = await waitForMail(guest.request, invitation.email, /Confirmez/);
  await guest.goto(firstLink(confirmation.text));
  await expect(guest).toHaveURL(/\/invitation\//);
  await guest.getByRole("button", { name: "Rejoindre le dossier" }).click();
  await expect(guest).toHaveURL(/\/dossiers-partages$/);

  const name = `${invitation.firstName} ${invitation.lastName}`;
  await approver.goto(`${filePath}/intervenants`);
  await approver.getByTestId("participant-item").filter({ hasText: name }).getByRole("button", { name: "Approuver l’accès" }).click();
  await expect(approver.getByTestId("participant-item").filter({ hasText: name })).toContainText("Actif");

  await guest.reload();
  await guest.getByRole("link", { name: /^Dossier / }).first().click();
  await guest.getByRole("button", { name: "Je m’engage" }).click();
  await expect(guest.getByTestId("shared-clients")).toBeVisible();
  return new URL(guest.url()).pathname;
}
