// A file's participants, in the browser (issue 32 §1): a founder invites a professional outside
// the network; the guest creates an account from the e-mail, confirms the address and joins; the
// other founder approves; the guest signs the undertaking, then sees the file — at 1280 and 360 px
// with axe — and never the member space.
import { expect, type Page } from "@playwright/test";
import { test } from "./typography-scan";
import { checkAccessibility, FOUNDER, firstLink, PREMIUM, signInAs, uniqueEmail, waitForMail, TWO_MEMBER_JOURNEY_MS } from "./fixtures";

async function openSharedFile(page: Page, counterpartName: string): Promise<string> {
  await page.goto("/dashboard/dossiers");
  await page.getByRole("link", { name: new RegExp(counterpartName) }).first().click();
  await expect(page.getByRole("heading", { name: `Dossier avec ${counterpartName}` })).toBeVisible();
  return new URL(page.url()).pathname;
}

test("invitation → guest sign-up → approval → undertaking → the guest sees the file", async ({ browser }) => {
  test.setTimeout(TWO_MEMBER_JOURNEY_MS);
  const thomas = await (await browser.newContext()).newPage();
  const helene = await (await browser.newContext()).newPage();
  const guest = await (await browser.newContext()).newPage();
  await signInAs(thomas, PREMIUM.email);
  await signInAs(helene, FOUNDER.email);
  const path = await openSharedFile(thomas, FOUNDER.name);

  await thomas.getByRole("link", { name: "Intervenants" }).click();
  await expect(thomas.getByRole("heading", { name: "Intervenants du dossier" })).toBeVisible();
  const email = uniqueEmail("avocat-invite");
  await thomas.getByLabel("Adresse e-mail").fill(email);
  await thomas.getByLabel("Rôle").selectOption("avocat");
  await thomas.getByLabel("Côté", { exact: true }).selectOption("acquereur");
  await thomas.getByRole("button", { name: "Envoyer l’invitation" }).click();
  await expect(thomas.getByTestId("participant-item").filter({ hasText: email })).toContainText("Invitation envoyée");
  await checkAccessibility(thomas);

  const invitation = await waitForMail(guest.request, email, /Invitation/);
  await guest.goto(firstLink(invitation.text));
  await expect(guest.getByRole("heading", { name: /Invitation au dossier/ })).toBeVisible();
  await checkAccessibility(guest);
  await guest.getByLabel("Prénom").fill("Gaspard");
  await guest.getByLabel("Nom", { exact: true }).fill("Lavocat");
  const password = "invite-secret-2026";
  await guest.getByLabel("Mot de passe", { exact: true }).fill(password);
  await guest.getByLabel("Confirmation du mot de passe").fill(password);
  await guest.getByRole("button", { name: "Créer mon compte invité" }).click();
  await expect(guest.getByText("Vérifiez votre messagerie")).toBeVisible();
  const confirmation = await waitForMail(guest.request, email, /Confirmez/);
  await guest.goto(firstLink(confirmation.text));
  await expect(guest).toHaveURL(/\/invitation\//);
  await guest.getByRole("button", { name: "Rejoindre le dossier" }).click();
  await expect(guest).toHaveURL(/\/dossiers-partages$/);
  await expect(guest.getByTestId("shared-file")).toContainText("En attente d’approbation");
  await expect(guest.getByTestId("two-factor-offer")).toBeVisible();

  // The member space stays closed to a guest, whatever the address typed.
  await guest.goto("/dashboard/annuaire");
  await expect(guest).toHaveURL(/\/dossiers-partages$/);

  await helene.goto(`${path}/intervenants`);
  await helene.getByTestId("participant-item").filter({ hasText: "Gaspard Lavocat" }).getByRole("button", { name: "Approuver l’accès" }).click();
  await expect(helene.getByTestId("participant-item").filter({ hasText: "Gaspard Lavocat" })).toContainText("Actif");

  await guest.reload();
  await guest.getByRole("link", { name: /^Dossier / }).click();
  await expect(guest.getByRole("heading", { name: "Engagement de confidentialité" })).toBeVisible();
  await expect(guest.getByTestId("shared-clients")).toHaveCount(0);
  await guest.getByRole("button", { name: "Je m’engage" }).click();
  await expect(guest.getByTestId("shared-clients")).toBeVisible();
  await expect(guest.getByTestId("shared-folder").first()).toContainText("Général");
  await checkAccessibility(guest);
  for (const p of [thomas, helene, guest]) await p.context().close();
});
