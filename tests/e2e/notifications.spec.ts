// Live notifications (issue 15 §3): a message sent from another browser (a visitor on the public
// profile) reaches the member's bell without a reload, the panel lists it with its link, opening
// it marks it read; at 1280 and 360 px, axe-clean.
import { expect, type Page } from "@playwright/test";
import { test } from "./typography-scan";
import { checkAccessibility, E2E_SEED, PREMIUM, signInAs } from "./fixtures";

async function unreadCount(page: Page): Promise<number> {
  const badge = page.getByTestId("notification-count");
  return (await badge.count()) === 0 ? 0 : Number.parseInt((await badge.textContent()) ?? "0", 10);
}

test("a message from a second browser rings the bell live; the panel opens it and marks it read", async ({ browser }) => {
  test.slow();
  const member = await browser.newContext();
  const visitor = await browser.newContext();
  const page = await member.newPage();
  await signInAs(page, PREMIUM.email);
  const bell = page.getByTestId("notification-bell");
  await expect(bell).toBeVisible();
  // The stream is open once the bell is hydrated (a button, not the no-JavaScript link).
  await expect(bell).toHaveAttribute("aria-haspopup", "dialog");
  // Start from a clean slate: everything read.
  await page.goto("/dashboard/notifications");
  const markAll = page.getByRole("main").getByRole("button", { name: "Tout marquer comme lu" });
  if (await markAll.isEnabled()) await markAll.click();
  await expect(page.getByTestId("notifications-unread")).toContainText("Tout est lu");
  await expect(page.getByTestId("notification-count")).toHaveCount(0);
  const before = await unreadCount(page);
  await checkAccessibility(page);

  // Another browser: a visitor writes to the member from their public profile.
  const other = await visitor.newPage();
  const subject = `Notification en direct ${Date.now()}`;
  await other.goto(`/annuaire?q=${encodeURIComponent(E2E_SEED.premium.name)}`);
  await other.getByRole("link", { name: `Voir le profil de ${E2E_SEED.premium.name}` }).first().click();
  await other.getByRole("button", { name: "Contacter ce professionnel" }).click();
  const dialog = other.getByRole("dialog");
  await dialog.getByLabel("Nom complet").fill("Claire Visiteuse");
  await dialog.getByLabel("Email").fill("claire.visiteuse@exemple.fr");
  await dialog.getByLabel("Objet").fill(subject);
  await dialog.getByLabel("Message").fill("Bonjour, je souhaiterais échanger sur la reprise d’un cabinet.");
  await dialog.getByRole("button", { name: "Envoyer" }).click();
  await expect(other.getByText("Message envoyé avec succès !")).toBeVisible();

  // No reload: the count and the page's list update by themselves.
  await expect(page.getByTestId("notification-count")).toHaveText(String(before + 1));
  await expect(page.getByRole("main").getByTestId("notification-list")).toContainText(subject);
  await expect(page.getByRole("status").filter({ hasText: /Notifications, 1 non lue/ })).toBeAttached();

  // The bell's panel: the notification with its link; opening it marks it read.
  await bell.click();
  const panel = page.getByRole("dialog", { name: "Notifications" });
  await expect(panel).toBeVisible();
  await checkAccessibility(page);
  await panel.getByRole("button", { name: new RegExp(subject) }).click();
  await expect(page).toHaveURL(/\/dashboard\/messages\/(contact|confrere|dossier)-[0-9a-f-]+$/);
  await expect(page.getByText(subject).first()).toBeVisible();
  await expect(page.getByTestId("notification-count")).toHaveCount(0);

  // At 360 px the bell stays in the top bar and its panel fits.
  await page.setViewportSize({ width: 360, height: 800 });
  await page.getByTestId("notification-bell").click();
  await expect(page.getByRole("dialog", { name: "Notifications" })).toBeVisible();
  const box = await page.getByRole("dialog", { name: "Notifications" }).boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(360);
  await page.keyboard.press("Escape");
  await member.close();
  await visitor.close();
});
