// The member space as one frame (issue 15 §1): one product name, one sign-out, the current place
// always shown — in the side navigation at 1280 px, in the bottom bar at 360 px.
import { expect, type Page } from "@playwright/test";
import { test } from "./typography-scan";
import { checkAccessibility, FOUNDER, overflowingElements, signInAs, signOut } from "./fixtures";

const nav = (page: Page) => page.getByRole("navigation", { name: "Sections de l’espace membre" });

test("the frame at 1280 px: side navigation, current place, one account menu, one sign-out", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAs(page, FOUNDER.email);
  await expect(nav(page).getByRole("link", { name: "Aperçu" })).toHaveAttribute("aria-current", "page");
  for (const name of ["Messages", "Annuaire", "Mandats", "Dossiers", "Statistiques", "Profil"]) {
    await expect(nav(page).getByRole("link", { name })).toBeVisible();
  }
  // One header: no public navigation, the product name once.
  await expect(page.getByRole("navigation", { name: "Navigation principale" })).toHaveCount(0);
  await expect(page.getByRole("banner")).toHaveCount(1);
  await expect(page.getByRole("banner").getByText("Membre fondateur").first()).toBeVisible();

  // /mandates is the 'Mandats' place; the tab's URL leads there.
  await nav(page).getByRole("link", { name: "Mandats" }).click();
  await expect(page).toHaveURL(/\/mandates$/);
  await expect(page.getByRole("heading", { level: 1, name: "Gestion des Mandats" })).toBeVisible();
  await expect(nav(page).getByRole("link", { name: "Mandats" })).toHaveAttribute("aria-current", "page");
  await page.goto("/dashboard/mandats");
  await expect(page).toHaveURL(/\/mandates$/);

  // Settings keep the frame; the account menu holds the only sign-out.
  await page.locator("summary").filter({ hasText: "Menu du compte" }).click();
  await page.getByRole("link", { name: "Paramètres" }).click();
  await expect(page).toHaveURL(/\/parametres$/);
  await expect(nav(page)).toBeVisible();
  await expect(page.getByRole("button", { name: /Déconnexion|Se déconnecter/ })).toHaveCount(0);
  await page.locator("summary").filter({ hasText: "Menu du compte" }).click();
  await expect(page.getByRole("button", { name: /Déconnexion|Se déconnecter/ })).toHaveCount(1);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: "Déconnexion" })).toBeHidden();

  // The application's footer is one line: the marketing footer stays on public pages.
  await expect(page.locator("[data-slot=app-footer]")).toHaveCount(1);
  await expect(page.getByText("Le réseau collaboratif et confidentiel des professionnels")).toHaveCount(0);

  await page.goto("/dashboard/messages");
  await checkAccessibility(page);
  await signOut(page);
  await expect(page).toHaveURL(/\/$/);
});

test("the frame at 360 px: bottom bar with the current place, account menu, nothing overflows", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signInAs(page, FOUNDER.email);
  const bar = nav(page);
  await expect(bar.getByRole("link", { name: "Aperçu" })).toHaveAttribute("aria-current", "page");
  await expect(bar.getByRole("link", { name: "Mandats" })).toBeVisible();
  // A place behind 'Plus' is named in the bar while it is the current one.
  await bar.locator("summary").filter({ hasText: "Plus" }).click();
  await bar.getByRole("link", { name: "Profil" }).click();
  await expect(page).toHaveURL(/\/dashboard\/profil$/);
  await expect(bar.locator("summary")).toContainText("Profil");
  await expect(bar.locator("details")).not.toHaveAttribute("open");
  expect(await page.evaluate(overflowingElements)).toEqual([]);

  await page.goto("/dashboard/dossiers");
  await expect(bar.getByRole("link", { name: "Dossiers" })).toHaveAttribute("aria-current", "page");
  await page.locator("summary").filter({ hasText: "Menu du compte" }).click();
  await expect(page.getByRole("link", { name: "Paramètres" })).toBeVisible();
  expect(await page.evaluate(overflowingElements)).toEqual([]);
  await page.getByRole("button", { name: "Déconnexion" }).click();
  await expect(page).toHaveURL(/\/$/);
});
