// Live notifications (issue 15 §3): a message sent from another browser (a visitor on the public
// profile) reaches the member's bell without a reload, the panel lists it with its link, opening
// it marks it read; at 1280 and 360 px, axe-clean. Two members (issue 31 §6): a file message from one
// raises the other's « Messages » count on the side bar and the tab bar, without a reload.
import { expect, type Page } from "@playwright/test";
import { test } from "./typography-scan";
import { checkAccessibility, E2E_SEED, FOUNDER, PREMIUM, signInAs, TWO_MEMBER_JOURNEY_MS } from "./fixtures";

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
  // The open to-dos under the feed, a page at a time (or the sentence saying there are none).
  await expect(page.getByRole("heading", { name: "Tâches ouvertes" })).toBeVisible();
  await expect(page.getByTestId("task-list").or(page.getByTestId("tasks-empty"))).toBeVisible();
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

/** The place's link in the navigation that shows at this width (the side bar, or the phone's tab bar). */
const place = (page: Page, name: string) => page.getByRole("navigation", { name: "Sections de l’espace membre" }).getByRole("link", { name: new RegExp(`^${name}`) });

test("two members: one writes in their file, the other's counts change without a reload, on the side bar and the tab bar", async ({ browser }) => {
  test.setTimeout(TWO_MEMBER_JOURNEY_MS);
  const thomasContext = await browser.newContext();
  const heleneContext = await browser.newContext();
  const thomas = await thomasContext.newPage();
  const helene = await heleneContext.newPage();
  await signInAs(thomas, PREMIUM.email);
  await signInAs(helene, FOUNDER.email);

  // Thomas starts with everything read, on his overview (the stream opens with the frame).
  await thomas.goto("/dashboard/notifications");
  const markAll = thomas.getByRole("main").getByRole("button", { name: "Tout marquer comme lu" });
  if (await markAll.isEnabled()) await markAll.click();
  await expect(thomas.getByTestId("notifications-unread")).toContainText("Tout est lu");
  await thomas.goto("/dashboard");
  await expect(thomas.getByTestId("notification-bell")).toHaveAttribute("aria-haspopup", "dialog");
  await expect(place(thomas, "Messages").getByTestId("place-count")).toHaveCount(0);

  // Hélène writes in their shared file (the personas' file of the seed).
  await helene.goto("/dashboard/dossiers");
  await helene.getByRole("listitem").filter({ hasText: PREMIUM.name }).first().getByRole("link").first().click();
  await expect(helene).toHaveURL(/\/dashboard\/dossiers\/[0-9a-f-]{36}$/);
  const text = `Point en direct ${Date.now().toString(36)}\u00a0: les comptes sont en ligne.`;
  await helene.getByLabel("Votre message").fill(text);
  await helene.getByRole("button", { name: "Envoyer" }).click();
  await expect(helene.getByRole("list", { name: "Messages du dossier" })).toContainText(text);

  // Thomas, without a reload: the side bar's « Messages » counts it, as does the bell.
  const url = thomas.url();
  await expect(place(thomas, "Messages").getByTestId("place-count")).toHaveText(/^1/);
  await expect(place(thomas, "Messages")).toHaveAccessibleName(/1 non lu/);
  await expect(thomas.getByTestId("notification-count")).toHaveText("1");
  expect(thomas.url()).toBe(url);

  // At 360 px the phone's tab bar shows the same count.
  await thomas.setViewportSize({ width: 360, height: 800 });
  await expect(place(thomas, "Messages").getByTestId("place-count")).toHaveText(/^1/);

  // Read on one device, gone on the other: Hélène's tab stays as it is, Thomas reads the notification.
  await thomas.getByTestId("notification-bell").click();
  await thomas.getByRole("dialog", { name: "Notifications" }).getByRole("button", { name: /Nouveau message dans un dossier/ }).first().click();
  await expect(thomas.getByTestId("notification-count")).toHaveCount(0);
  await expect(place(thomas, "Messages").getByTestId("place-count")).toHaveCount(0);
  await thomasContext.close();
  await heleneContext.close();
});
