import { randomBytes } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect, type APIRequestContext, type Page } from "@playwright/test";

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
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}
