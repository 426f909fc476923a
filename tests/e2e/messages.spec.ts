// « Messages » (issue 31 §3): one view of conversations by counterpart and by file, unread marks,
// search, keyboard access at 360 px; a file's thread read in one place is read in the other.
import { expect, type Page } from "@playwright/test";
import { test } from "./typography-scan";
import { checkAccessibility, FOUNDER, overflowingElements, PREMIUM, signInAs, TWO_MEMBER_JOURNEY_MS } from "./fixtures";

/** The founding and premium personas' file (scripts/seed-files.ts), opened from its list. */
async function openPersonasFile(page: Page, counterpart: string): Promise<string> {
  await page.goto("/dashboard/dossiers");
  await page.getByRole("listitem").filter({ hasText: counterpart }).first().getByRole("link").first().click();
  await expect(page).toHaveURL(/\/dashboard\/dossiers\/[0-9a-f-]{36}$/);
  return new URL(page.url()).pathname;
}

test("a file's thread is a conversation of « Messages », with one read state", async ({ browser }) => {
  test.setTimeout(TWO_MEMBER_JOURNEY_MS);
  const thomas = await (await browser.newContext()).newPage();
  const helene = await (await browser.newContext()).newPage();
  await signInAs(thomas, PREMIUM.email);
  await signInAs(helene, FOUNDER.email);

  // Hélène writes in the file (its own page).
  const word = `jalon${Date.now().toString(36)}`;
  const first = `Point d’étape ${word}\u00a0: la visite du site est fixée.`;
  const filePath = await openPersonasFile(helene, PREMIUM.name);
  const fileId = filePath.split("/").pop()!;
  await helene.getByLabel("Votre message").fill(first);
  await helene.getByRole("button", { name: "Envoyer" }).click();
  await expect(helene.getByRole("list", { name: "Messages du dossier" })).toContainText(first);

  // Thomas finds it in « Messages », by file, unread, and by a word of it.
  await thomas.goto("/dashboard/messages?vue=dossiers");
  await expect(thomas.getByRole("link", { name: "Par dossier" })).toHaveAttribute("aria-current", "page");
  const conversation = thomas.getByTestId("conversation-item").filter({ hasText: word });
  await expect(conversation).toHaveCount(1);
  await expect(conversation).toContainText(/\d+ non lus?/);
  await expect(conversation).toContainText(FOUNDER.name);
  await checkAccessibility(thomas);
  await thomas.getByLabel("Rechercher dans vos messages").fill(word);
  await thomas.getByLabel("Rechercher dans vos messages").press("Enter");
  await expect(thomas).toHaveURL(new RegExp(`q=${word}`));
  await expect(thomas.getByTestId("conversation-item")).toHaveCount(1);
  await expect(thomas.getByTestId("inbox-count")).toContainText("1 conversation trouvée");

  // Opened with the keyboard: the thread, its newest message marked new, read once shown.
  await thomas.getByTestId("conversation-item").first().focus();
  await thomas.keyboard.press("Enter");
  await expect(thomas).toHaveURL(new RegExp(`/dashboard/messages/dossier-${fileId}$`));
  const newest = thomas.getByTestId("thread-message").filter({ hasText: first });
  await expect(newest.getByText("Nouveau")).toBeVisible();
  await checkAccessibility(thomas);

  // Read here, read in the file: no « Nouveau » there, the files list has nothing unread.
  await expect
    .poll(async () => {
      await thomas.goto(filePath);
      return thomas.getByRole("listitem").filter({ hasText: first }).getByText("Nouveau").count();
    })
    .toBe(0);
  await thomas.goto("/dashboard/dossiers");
  await expect(thomas.getByRole("listitem").filter({ hasText: FOUNDER.name }).first()).not.toContainText(/messages? non lus?/);

  // The other way: Hélène writes again, Thomas reads it in the file, « Messages » follows.
  const second = `Second point ${word}\u00a0: le mémorandum est en ligne.`;
  await helene.getByLabel("Votre message").fill(second);
  await helene.getByRole("button", { name: "Envoyer" }).click();
  await expect(helene.getByRole("list", { name: "Messages du dossier" })).toContainText(second);
  await thomas.goto(`/dashboard/messages?vue=dossiers&q=${word}`);
  await expect(thomas.getByTestId("conversation-item").first()).toContainText(/\d+ non lus?/);
  // The file marks its messages read once shown (a request after the page): wait for it before leaving.
  const marked = thomas.waitForResponse((r) => r.request().method() === "POST" && r.url().includes(`/dashboard/dossiers/${fileId}`));
  await thomas.goto(filePath);
  await expect(thomas.getByRole("listitem").filter({ hasText: second }).getByText("Nouveau")).toBeVisible();
  expect((await marked).ok()).toBe(true);
  await expect
    .poll(async () => {
      await thomas.goto(`/dashboard/messages?vue=dossiers&q=${word}`);
      return (await thomas.getByTestId("conversation-item").first().textContent()) ?? "";
    })
    .not.toMatch(/non lus?/);

  // The thread answered from « Messages » lands in the file.
  await thomas.goto(`/dashboard/messages/dossier-${fileId}`);
  const answer = `Réponse ${word}\u00a0: bien reçu, merci.`;
  await thomas.getByLabel("Votre message").fill(answer);
  await thomas.getByRole("button", { name: "Envoyer", exact: true }).click();
  await expect(thomas.getByText("Message envoyé avec succès !")).toBeVisible();
  await expect(thomas.getByTestId("thread-message").filter({ hasText: answer })).toHaveCount(1);
  await helene.goto(filePath);
  await expect(helene.getByRole("listitem").filter({ hasText: answer }).getByText("Nouveau")).toBeVisible();
  await expect(thomas.getByRole("link", { name: /Ouvrir le dossier/ })).toHaveAttribute("href", `${filePath}#messages`);
});

test("« Messages » at 360 px: views, search with its empty state, nothing wider than the screen", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signInAs(page, PREMIUM.email);
  await page.goto("/dashboard/messages");
  await expect(page.getByRole("heading", { level: 2, name: "Messages" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Toutes" })).toHaveAttribute("aria-current", "page");
  expect(await page.evaluate(overflowingElements)).toEqual([]);
  await page.getByRole("link", { name: "Par interlocuteur" }).click();
  await expect(page).toHaveURL(/vue=confreres/);
  for (const href of await page.getByTestId("conversation-item").evaluateAll((links) => links.map((l) => l.getAttribute("href") ?? ""))) {
    expect(href).toMatch(/\/dashboard\/messages\/(confrere|contact)-/);
  }
  await page.getByLabel("Rechercher dans vos messages").fill("zzz introuvable");
  await page.getByRole("button", { name: "Rechercher" }).click();
  await expect(page.getByTestId("conversations-empty")).toContainText("Aucune conversation trouvée");
  await expect(page).toHaveURL(/vue=confreres/);
  expect(await page.evaluate(overflowingElements)).toEqual([]);
  await page.getByRole("link", { name: "Effacer" }).click();
  await expect(page).not.toHaveURL(/q=/);
});
