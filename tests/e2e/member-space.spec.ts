import { randomBytes } from "node:crypto";
import { expect } from "@playwright/test";
import { test } from "./typography-scan";
import { checkAccessibility, expectNoAxeViolations, FOUNDER, FREEMIUM, PREMIUM, signInAs, waitForMail, TWO_MEMBER_JOURNEY_MS } from "./fixtures";

test("overview: founding welcome, what waits (numbers agree with their pages), profile completeness, the mandate system card", async ({ page }) => {
  await signInAs(page, FOUNDER.email);
  const tab = page.getByRole("main");
  await expect(tab.getByRole("heading", { level: 2, name: "Bonjour Hélène" })).toBeVisible();
  await expect(tab.getByRole("heading", { name: "Bienvenue parmi les membres fondateurs\u00a0!" })).toBeVisible();
  await expect(tab.getByRole("heading", { level: 3, name: "Ce qui vous attend" })).toBeVisible();
  // The unread messages figure is the inbox's (or there is none and the inbox says none).
  const unreadItem = tab.getByTestId("overview-unread");
  const unread = (await unreadItem.count()) ? Number((await unreadItem.locator("span").first().textContent())?.trim()) : 0;
  // Profile completeness: a percentage and, below 100 %, what is missing and where to fill it.
  const completeness = tab.getByTestId("profile-completeness");
  await expect(completeness.getByRole("progressbar", { name: "Profil complété" })).toBeVisible();
  const percent = Number(await completeness.getByRole("progressbar").getAttribute("aria-valuenow"));
  if (percent < 100) await expect(completeness.getByRole("link", { name: "Compléter mon profil" })).toHaveAttribute("href", "/dashboard/profil");
  await expect(tab.getByTestId("founding-status").getByText("Membre fondateur")).toBeVisible();
  await expect(tab.getByRole("heading", { name: "Nouveau\u00a0: le système de mandats" })).toBeVisible();
  await expect(tab.getByRole("link", { name: "Découvrir les mandats" })).toHaveAttribute("href", "/mandates");
  await checkAccessibility(page);

  // « Messages » counts conversations: some unread exactly when the overview counts unread messages.
  await page.goto("/dashboard/messages");
  if (unread > 0) await expect(page.getByTestId("inbox-count")).toContainText(/· \d+ non lues?/);
  else await expect(page.getByTestId("inbox-count")).not.toContainText("non lu");

  // A freemium member without anything waiting sees what to do next, and the founding offer.
  await signInAs(page, FREEMIUM.email);
  const items = page.getByRole("list", { name: "Ce qui vous attend" });
  const empty = page.getByTestId("overview-empty");
  await expect(items.or(empty)).toBeVisible();
  if (await empty.isVisible()) await expect(empty.getByRole("link").first()).toBeVisible();
  await expect(page.getByTestId("founding-status")).toContainText(/Plus (qu’une|que \d+) places? de membre fondateur/);
  await expect(page.getByTestId("founding-status")).toContainText(/250\s€ TTC par an, tarif garanti 3\sans/);
  await expect(page.getByTestId("founding-status").getByRole("link", { name: "Découvrir l’offre" })).toHaveAttribute("href", "/premium");
  // The offer page: prices TTC with the VAT, one guarantee duration, one-year payment without renewal.
  await page.goto("/premium");
  const offer = page.getByTestId("founding-offer");
  await expect(offer).toContainText(/soit 208,33\s€ HT et 41,67\s€ de TVA à 20\s%/);
  await expect(offer).toContainText(/Tarif fondateur garanti 3\sans/);
  await expect(offer).toContainText("sans renouvellement automatique");
  await expect(page.getByText(/garanti 5\sans/)).toHaveCount(0);
  await expect(offer.getByRole("button", { name: "Rejoindre l’offre fondateur" })).toBeVisible();

  // A premium member (no founding badge) is offered nothing he cannot take (issue 27).
  await signInAs(page, PREMIUM.email);
  await expect(page.getByTestId("founding-status")).toContainText("Plan Premium");
  await expect(page.getByTestId("founding-status")).not.toContainText("Offre membre fondateur");
  await page.goto("/premium");
  await expect(page.getByRole("heading", { level: 1, name: "Votre adhésion" })).toBeVisible();
  await expect(page.getByTestId("current-plan")).toContainText("Premium");
  await expect(page.getByText("Badge de membre fondateur à vie")).toHaveCount(0);
  await expect(page.getByText("Offre membre fondateur")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Rejoindre l’offre fondateur" })).toHaveCount(0);
});

test("internal directory → inbox: a premium member's message arrives, is opened (read) and answered", async ({ page }) => {
  // Two members, two mails and the conversation from both sides: a long journey.
  test.setTimeout(TWO_MEMBER_JOURNEY_MS);
  const subject = `Co-mandat ${randomBytes(3).toString("hex")}`;
  const body = `Bonjour Thomas, j’accompagne un repreneur industriel qui cherche une PME de mécanique en Rhône-Alpes. ${"Seriez-vous ouvert à un co-mandat\u00a0? ".repeat(3)}`;

  // The founder finds the premium member in the internal directory.
  await signInAs(page, FOUNDER.email);
  await page.goto("/dashboard/annuaire");
  await expect(page.getByRole("heading", { level: 2, name: "Annuaire Interne" })).toBeVisible();
  await expect(page.getByTestId("result-count")).toHaveText(/^\d+ confrères trouvés$/);
  // Own profile excluded.
  await expect(page.getByRole("heading", { level: 3, name: FOUNDER.name })).toHaveCount(0);
  await checkAccessibility(page);

  await page.getByLabel("Département").selectOption("976");
  await expect(page).toHaveURL(/departement=976/);
  await page.getByRole("link", { name: "Réinitialiser" }).click();
  await expect(page).toHaveURL(/\/dashboard\/annuaire$/);

  await page.getByLabel("Recherche", { exact: true }).fill(PREMIUM.name);
  await page.getByRole("button", { name: "Rechercher" }).click();
  await expect(page).toHaveURL(/q=Thomas\+Garnier/);
  await expect(page.getByTestId("result-count")).toHaveText(/^\d+ confrères? trouvés?$/);
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { level: 3, name: PREMIUM.name }) }).first();
  await expect(card.getByText("Mandats actifs")).toBeVisible();
  await expect(card.getByText("12 derniers mois")).toBeVisible();

  await card.getByRole("button", { name: `Contacter ${PREMIUM.name}` }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: `Contacter ${PREMIUM.name}` })).toBeVisible();
  await expectNoAxeViolations(page);
  await dialog.getByLabel("Objet").fill(subject);
  await dialog.getByLabel("Message", { exact: true }).fill(body);
  await dialog.getByRole("button", { name: "Envoyer" }).click();
  await expect(page.getByText("Message envoyé avec succès !")).toBeVisible();
  await expect(dialog).toBeHidden();

  // The notification e-mail: sender, subject, first 100 characters + '…'.
  const mail = await waitForMail(page.request, PREMIUM.email, new RegExp(subject));
  expect(mail.subject).toBe(`Nouveau message\u00a0: ${subject}`);
  expect(mail.text).toContain(FOUNDER.name);
  expect(mail.text).toContain(`${body.slice(0, 100)}…`);

  // The premium member sees it on top of « Messages », in the conversation with the founder, unread.
  await signInAs(page, PREMIUM.email);
  await expect(page.getByTestId("overview-unread")).toContainText(/messages? non lus?/);
  await page.goto("/dashboard/messages");
  await expect(page.getByRole("heading", { level: 2, name: "Messages" })).toBeVisible();
  const first = page.getByTestId("conversation-item").first();
  await expect(first).toContainText(subject);
  await expect(first).toContainText(FOUNDER.name);
  await expect(first).toContainText(/\d+ non lus?/);
  await expect(first.locator("time")).toHaveText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
  await checkAccessibility(page);

  await first.click();
  await expect(page).toHaveURL(/\/dashboard\/messages\/confrere-[0-9a-f-]{36}$/);
  const conversationUrl = page.url();
  await expect(page.getByRole("heading", { level: 2, name: FOUNDER.name })).toBeVisible();
  await expect(page.getByTestId("message-body").last()).toHaveText(body.trim());
  await checkAccessibility(page);

  await page.getByLabel("Votre message").fill("Avec plaisir, appelons-nous jeudi.");
  await page.getByRole("button", { name: "Envoyer", exact: true }).click();
  await expect(page.getByText("Message envoyé avec succès !")).toBeVisible();
  const reply = await waitForMail(page.request, FOUNDER.email, new RegExp(`Re\\s: ${subject}`));
  expect(reply.text).toContain(PREMIUM.name);
  // Opening it marked it read: no « Nouveau » after the reply's reload.
  await expect(page.getByRole("main").getByText("Nouveau", { exact: true })).toHaveCount(0);

  await page.getByRole("link", { name: "Retour aux messages" }).click();
  await expect(page.getByTestId("conversation-item").first()).toContainText("Vous\u00a0: Avec plaisir");
  await expect(page.getByTestId("conversation-item").first()).not.toContainText(/non lus?/);

  // An unknown conversation is a 404 inside the dashboard; an old inbox link leads to its conversation.
  await page.goto("/dashboard/messages/confrere-6f1c3c57-57a3-4c59-9d1e-2d1c8e6f0a11");
  await expect(page.getByRole("heading", { level: 2, name: "Conversation introuvable" })).toBeVisible();

  // The founder sees the same conversation under the premium member's name, the reply unread.
  await signInAs(page, FOUNDER.email);
  await page.goto(conversationUrl);
  await expect(page.getByRole("heading", { level: 2, name: "Conversation introuvable" })).toBeVisible();
  await page.goto("/dashboard/messages");
  const theirs = page.getByTestId("conversation-item").filter({ hasText: PREMIUM.name }).first();
  await expect(theirs).toContainText(/\d+ non lus?/);
});

test("freemium: limited inbox with the upsell, and the upsell instead of the contact form", async ({ page }) => {
  await signInAs(page, FREEMIUM.email);
  await expect(page.getByRole("heading", { name: "Bienvenue parmi les membres fondateurs\u00a0!" })).toHaveCount(0);
  await page.goto("/dashboard/messages");
  await expect(page.getByText("Contenu limité").first()).toBeVisible();
  await expect(page.getByRole("heading", { name: "Passez Premium" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Découvrir Premium" })).toHaveAttribute("href", "/premium");
  await checkAccessibility(page);

  // What Premium unlocks, said plainly.
  await expect(page.getByText("vous lisez vos messages en entier")).toBeVisible();
  const item = page.getByTestId("conversation-item").first();
  if (await item.count()) {
    await item.click();
    await expect(page).toHaveURL(/\/dashboard\/messages\/(confrere|contact|dossier)-[0-9a-f-]{36}$/);
    // The URL changes before the list is replaced: wait for the list to be gone.
    await expect(page.getByTestId("conversation-item")).toHaveCount(0);
    if (!page.url().includes("/dossier-")) {
      await expect(page.getByText("Contenu limité")).toBeVisible();
      await expect(page.getByRole("link", { name: "Découvrir Premium" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Envoyer", exact: true })).toHaveCount(0);
    }
    await checkAccessibility(page);
  }

  await page.goto("/dashboard/annuaire");
  await expect(page.getByRole("heading", { name: "Passez Premium" })).toBeVisible();
  await page.getByRole("button", { name: /^Contacter / }).first().click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Passez Premium" })).toBeVisible();
  await expect(dialog.getByLabel("Objet")).toHaveCount(0);
  await expectNoAxeViolations(page);
  await page.keyboard.press("Escape");

  // The server refuses it too.
  const res = await page.request.post("/dashboard/annuaire", {
    form: { intent: "contact", recipientId: "6f1c3c57-57a3-4c59-9d1e-2d1c8e6f0a11", subject: "Bonjour", message: "Bonjour" },
  });
  expect(res.status()).toBe(403);
});
