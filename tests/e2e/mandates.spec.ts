// Mandates, matching and confidential connections, in the browser, against the seeded demo
// (seed 7). Two validated demo members each create a mandate through the UI; the pair is built
// to score 100 % (sector U, Mayotte) so it tops the lists whatever else the shared database holds.
import { randomBytes } from "node:crypto";
import { type Browser, expect, type Page } from "@playwright/test";
import { test } from "./typography-scan";
import { E2E_SEED, expectNoAxeViolations, signIn, waitForMail, TWO_MEMBER_JOURNEY_MS } from "./fixtures";
import { certifyAndCreate, fillMandate, type NewMandate, openNewMandate } from "./mandate-form-helpers";

const PASSWORD = "demo-transmission-2026";
const login = (kind: "fondateur" | "premium" | "freemium") => `${kind}+s${E2E_SEED.seed}@demo.reseau-transmission.fr`;
const BUYER = login("fondateur");
const SELLER = login("premium");

async function member(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  return page;
}

async function createMandate(page: Page, m: NewMandate, checkAxe = false) {
  const form = await openNewMandate(page);
  if (checkAxe) await expectNoAxeViolations(page);
  await fillMandate(form, m);
  await certifyAndCreate(page, form, m.code);
}

function card(page: Page, code: string) {
  return page.getByRole("article", { name: code, exact: true });
}

async function openMatching(page: Page, code: string) {
  await page.goto("/mandates");
  await card(page, code).getByRole("link", { name: /^Matching/ }).click();
  const panel = page.getByRole("dialog", { name: `Matching pour le mandat ${code}` });
  await expect(panel).toBeVisible();
  return panel;
}

test("two members: matching mandates, request, acceptance on both sides, identities revealed, e-mails", async ({ browser }) => {
  test.setTimeout(TWO_MEMBER_JOURNEY_MS);
  const tag = randomBytes(3).toString("hex").toUpperCase();
  const buyerMandate = { type: "buyer" as const, code: `E2E-ACQ-${tag}`, name: `Holding Acquéreur ${tag}`, address: `12 rue des Repreneurs ${tag}, 97600 Mamoudzou` };
  const sellerMandate = { type: "seller" as const, code: `E2E-CED-${tag}`, name: `Société Cédante ${tag}`, address: `3 quai du Port ${tag}, 97600 Mamoudzou` };

  const a = await member(browser, BUYER);
  const b = await member(browser, SELLER);

  await a.goto("/mandates");
  await expect(a.getByRole("heading", { level: 1, name: "Gestion des Mandats" })).toBeVisible();
  await expectNoAxeViolations(a);
  await createMandate(a, buyerMandate, true);
  await createMandate(b, sellerMandate);

  // The card: badges, type, summary.
  const buyerCard = card(a, buyerMandate.code);
  await expect(buyerCard.getByText("Exclusif")).toBeVisible();
  await expect(buyerCard.getByText("Actif")).toBeVisible();
  await expect(buyerCard.getByText("Mandat acquéreur")).toBeVisible();
  await expect(buyerCard.getByText("1 département")).toBeVisible();

  // Detail dialog (axe), with the owner's confidential block.
  await buyerCard.getByText("Autres actions").click();
  await buyerCard.getByRole("link", { name: /^Détails/ }).click();
  const details = a.getByRole("dialog", { name: buyerMandate.code });
  await expect(details.getByText("Détails du mandat · Mandat acquéreur")).toBeVisible();
  await expect(details.getByText(buyerMandate.name)).toBeVisible();
  // French format, no decimals (narrow no-break spaces between groups).
  await expect(details.getByText(/^500\s000\s€ - 2\s000\s000\s€$/)).toBeVisible();
  await expect(details.getByText("Non spécifié").first()).toBeVisible();
  await expectNoAxeViolations(a);
  await details.getByRole("link", { name: "Fermer" }).click();
  await expect(details).toBeHidden();

  // Opportunités: the seller's mandate comes first for the buyer.
  await a.getByRole("link", { name: "Opportunités" }).click();
  const opportunity = a.getByTestId("opportunity").first();
  await expect(opportunity).toContainText(sellerMandate.code);
  await expect(opportunity.getByText("100 %")).toBeVisible();
  await expect(opportunity).not.toContainText(sellerMandate.name);
  await expectNoAxeViolations(a);

  // The buyer finds the seller's mandate at 100 % with the reasons, and asks for a connection.
  let panel = await openMatching(a, buyerMandate.code);
  const potential = panel.getByTestId("potential-match").filter({ hasText: sellerMandate.code });
  await expect(potential.getByText("100 %")).toBeVisible();
  // The criteria in words, not raw points (issue 27 §6).
  const criteria = potential.getByRole("list", { name: "Critères du rapprochement" });
  await expect(criteria).toContainText(/Secteur\s:\scorrespond/);
  await expect(criteria).toContainText(/Territoire\s:\scorrespond/);
  await expect(criteria).toContainText(/Montant\s:\scorrespond/);
  await expect(criteria).toContainText(/Apport\s:\scorrespond/);
  await expect(criteria).not.toContainText("/");
  await expect(potential).not.toContainText(sellerMandate.name);
  await expectNoAxeViolations(a);
  // The seller watches their overview meanwhile: the request's to-do arrives there without a reload.
  await b.goto("/dashboard");
  const requestTask = b.getByTestId("overview-match_request");
  const waitingBefore = (await requestTask.count()) ? Number(await requestTask.locator("span").first().textContent()) : 0;
  await potential.getByRole("link", { name: /Demander une mise en relation/ }).click();
  const requestDialog = a.getByRole("dialog", { name: "Demander une mise en relation" });
  await expect(requestDialog.getByRole("heading", { name: new RegExp(sellerMandate.code) })).toBeVisible();
  await expectNoAxeViolations(a);
  await requestDialog.getByLabel("Message (facultatif)").fill(`Bonjour, mon client ${tag} est très intéressé.`);
  await requestDialog.getByRole("button", { name: "Envoyer la demande" }).click();
  await expect(a.getByText("Demande de mise en relation envoyée !")).toBeVisible();
  panel = a.getByRole("dialog", { name: `Matching pour le mandat ${buyerMandate.code}` });
  await expect(panel.getByTestId("sent-request").filter({ hasText: sellerMandate.code }).getByText("En attente")).toBeVisible();

  const overviewUrl = b.url();
  await expect(requestTask.locator("span").first()).toHaveText(String(waitingBefore + 1));
  await expect(requestTask).toContainText(waitingBefore === 0 ? "demande de mise en relation attend votre réponse" : "demandes de mise en relation attendent votre réponse");
  expect(b.url()).toBe(overviewUrl);

  // The seller is told by e-mail, without the buyer's client identity.
  const requestMail = await waitForMail(b.request, SELLER, /Nouvelle demande de mise en relation/);
  expect(requestMail.text).toContain(buyerMandate.code);
  expect(requestMail.text).not.toContain(buyerMandate.name);

  // The seller accepts and proposes their mandate back.
  panel = await openMatching(b, sellerMandate.code);
  const received = panel.getByTestId("received-request").filter({ hasText: buyerMandate.code });
  await expect(received.getByText(`«\u00a0Bonjour, mon client ${tag} est très intéressé.\u00a0»`).first()).toBeVisible();
  await received.getByRole("button", { name: "Accepter" }).click();
  await expect(b.getByText("Demande acceptée ! En attente de confirmation de l'autre partie.")).toBeVisible();
  panel = b.getByRole("dialog", { name: `Matching pour le mandat ${sellerMandate.code}` });
  await panel.getByRole("button", { name: "Proposer" }).click();
  await expect(b.getByText("Demande de mise en relation envoyée !")).toBeVisible();
  await expect(b.getByRole("dialog", { name: `Matching pour le mandat ${sellerMandate.code}` }).getByText("Déjà proposé")).toBeVisible();

  // The buyer accepts the proposal: the connection is confirmed.
  panel = await openMatching(a, buyerMandate.code);
  await panel.getByTestId("received-request").filter({ hasText: sellerMandate.code }).getByRole("button", { name: "Accepter" }).click();
  await expect(a.getByText("Mise en relation confirmée ! Les coordonnées ont été échangées par email.")).toBeVisible();
  panel = a.getByRole("dialog", { name: `Matching pour le mandat ${buyerMandate.code}` });
  let connection = panel.getByTestId("connection").filter({ hasText: sellerMandate.code });
  await expect(connection.getByText("Mise en relation confirmée")).toBeVisible();
  await expect(connection).not.toContainText(sellerMandate.name);
  await expectNoAxeViolations(a);
  // What needs the member heads the panel: the undertaking to sign, its one primary action.
  await expect(panel.locator("section > h3").first()).toContainText("À traiter en premier");
  await expect(connection.getByRole("button", { name: "Signer et voir l’identité du client" })).toHaveAttribute("data-variant", "default");
  // The undertaking first, then the identity.
  await connection.getByLabel("J’accepte cet engagement de confidentialité").check();
  await connection.getByRole("button", { name: "Signer et voir l’identité du client" }).click();
  await expect(a.getByText("Engagement de confidentialité enregistré", { exact: false })).toBeVisible();
  connection = a.getByRole("dialog", { name: `Matching pour le mandat ${buyerMandate.code}` }).getByTestId("connection");
  await expect(connection.getByTestId("revealed-client")).toContainText(sellerMandate.name);
  await expect(connection.getByTestId("revealed-client")).toContainText(sellerMandate.address);
  await connection.getByText("Historique de la mise en relation").click();
  await expect(connection.getByText("Engagement de confidentialité signé — vous")).toBeVisible();

  // The seller signs too and sees the buyer's client.
  panel = await openMatching(b, sellerMandate.code);
  connection = panel.getByTestId("connection").filter({ hasText: buyerMandate.code });
  await expect(connection).not.toContainText(buyerMandate.name);
  await connection.getByLabel("J’accepte cet engagement de confidentialité").check();
  await connection.getByRole("button", { name: "Signer et voir l’identité du client" }).click();
  await expect(
    b.getByRole("dialog", { name: `Matching pour le mandat ${sellerMandate.code}` }).getByTestId("revealed-client"),
  ).toContainText(buyerMandate.name);

  // Both got the confirmation with the other's contact, and no client identity.
  const toBuyer = await waitForMail(a.request, BUYER, /Mise en relation confirmée/);
  const toSeller = await waitForMail(b.request, SELLER, /Mise en relation confirmée/);
  expect(toBuyer.text).toContain(SELLER);
  expect(toSeller.text).toContain(BUYER);
  for (const mail of [toBuyer, toSeller, requestMail]) {
    for (const secret of [buyerMandate.name, buyerMandate.address, sellerMandate.name, sellerMandate.address]) {
      expect(mail.text).not.toContain(secret);
      expect(mail.html).not.toContain(secret);
    }
  }

  // Delete confirmation (axe), then the mandate is gone.
  await b.goto("/mandates");
  await card(b, sellerMandate.code).getByText("Autres actions").click();
  await card(b, sellerMandate.code).getByRole("link", { name: /^Supprimer/ }).click();
  const confirm = b.getByRole("alertdialog", { name: "Supprimer le mandat" });
  await expect(confirm.getByText("Êtes-vous sûr de vouloir supprimer ce mandat ? Cette action est irréversible.")).toBeVisible();
  await expectNoAxeViolations(b);
  await confirm.getByRole("link", { name: "Annuler" }).click();
  await expect(confirm).toBeHidden();
  await card(b, sellerMandate.code).getByText("Autres actions").click();
  await card(b, sellerMandate.code).getByRole("link", { name: /^Supprimer/ }).click();
  await b.getByRole("alertdialog", { name: "Supprimer le mandat" }).getByRole("button", { name: "Supprimer" }).click();
  await expect(b.getByText("Mandat supprimé")).toBeVisible();
  await expect(card(b, sellerMandate.code)).toHaveCount(0);

  // The stats tab counts the buyer's mandate.
  await a.goto("/dashboard/stats");
  await expect(a.getByRole("heading", { name: "Statistiques des mandats" })).toBeVisible();
  await expect(a.getByText(buyerMandate.code)).toBeVisible();
  await expectNoAxeViolations(a);
  await a.context().close();
  await b.context().close();
});

// The freemium limit (3/3 shown before any field) is walked in mandate-form.spec.ts.

/** Creates a mandate by posting the form's fields, as the form does (many mandates, quickly). */
async function postMandate(page: Page, fields: Array<[string, string]>) {
  const today = new Date().toLocaleDateString("sv-SE", { timeZone: "Europe/Paris" });
  const end = new Date(Date.now() + 90 * 86_400_000).toLocaleDateString("sv-SE", { timeZone: "Europe/Paris" });
  const body = new URLSearchParams([
    ["intent", "create"],
    ["isExclusive", "on"],
    ["startDate", today],
    ["endDate", end],
    ["clientName", "Client E2E"],
    ["clientAddress", "1 rue du Test, 97600 Mamoudzou"],
    ...fields,
  ]);
  const origin = new URL(page.url()).origin;
  const res = await page.request.post("/mandates", {
    headers: { "content-type": "application/x-www-form-urlencoded", origin },
    data: body.toString(),
    maxRedirects: 0,
  });
  expect(res.status(), await res.text()).toBe(302);
}

test("matches a professional can trust: sector filter, count and list agree, « Voir les suivants » by keyboard, criteria in words, one badge place", async ({ browser }) => {
  test.setTimeout(TWO_MEMBER_JOURNEY_MS);
  const tag = randomBytes(3).toString("hex").toUpperCase();
  const a = await member(browser, BUYER);
  const b = await member(browser, SELLER);
  // 21 transport companies in Mayotte fitting everything, and a security company fitting
  // everything but its sector (70 %): it must not be offered.
  const sellerFields = (code: string, sector: string): Array<[string, string]> => [
    ["mandateType", "seller"],
    ["clientCode", code],
    ["companySector", sector],
    ["companyTerritory", "976"],
    ["valuationAmount", "1200000"],
    ["requiredContributionMin", "200000"],
    ["requiredContributionMax", "400000"],
  ];
  for (let i = 0; i < 21; i++) await postMandate(b, sellerFields(`TRP-${tag}-${i}`, "H"));
  await postMandate(b, sellerFields(`SECU-${tag}`, "N"));
  const code = `ACQ-TRP-${tag}`;
  await postMandate(a, [
    ["mandateType", "buyer"],
    ["clientCode", code],
    ["searchSectors", "H"],
    ["searchSectors", "I"],
    ["searchTerritories", "976"],
    ["targetAmountMin", "500000"],
    ["targetAmountMax", "2000000"],
    ["contributionMin", "100000"],
    ["contributionMax", "300000"],
  ]);

  // The card's count is the panel's: the same number in both places.
  await a.goto("/mandates");
  const figure = card(a, code).getByTestId("mandate-figures").getByRole("definition").first();
  await expect(card(a, code).getByTestId("mandate-figures")).toContainText("Mandats potentiels");
  const counted = Number(await figure.textContent());
  expect(counted).toBeGreaterThanOrEqual(21);
  const panel = await openMatching(a, code);
  await expect(panel.getByRole("heading", { name: new RegExp(`^Mandats potentiels\\s*\\(${counted}\\)$`) })).toBeVisible();
  const items = panel.getByTestId("potential-match");
  await expect(items).toHaveCount(5);
  await expect(panel.getByTestId("potential-cut")).toContainText(`5 premiers sur ${counted}`);
  await expect(panel.getByText(`SECU-${tag}`)).toHaveCount(0);
  await expect(items.first().getByRole("list", { name: "Critères du rapprochement" })).toContainText(/Secteur\s:\scorrespond/);
  // The percentage at the same place on every card: the same right edge.
  const edges = await panel.getByTestId("score-pill").evaluateAll((pills) => pills.map((p) => Math.round(p.getBoundingClientRect().right)));
  expect(new Set(edges).size).toBe(1);
  await expectNoAxeViolations(a);

  // « Voir les suivants » with the keyboard: the next ones are listed, the focus on the first of them.
  const more = panel.getByRole("link", { name: "Voir les suivants" });
  await more.focus();
  await a.keyboard.press("Enter");
  await expect(items).toHaveCount(Math.min(counted, 25));
  await expect(items.nth(5)).toBeFocused();
  await expect(panel.getByText(`SECU-${tag}`)).toHaveCount(0);
  await a.context().close();
  await b.context().close();
});

test("without JavaScript: the form renders inline, validates on the server and creates the mandate", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/auth");
  await page.getByLabel("Email").fill(BUYER);
  await page.getByLabel("Mot de passe", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Se connecter" }).click();
  await page.goto("/mandates?nouveau=1");
  // Every step shows at once, in one form.
  const form = page.getByRole("form", { name: "Nouveau mandat" });
  await expect(form).toBeVisible();
  const code = `NOJS-${randomBytes(3).toString("hex").toUpperCase()}`;
  await form.getByLabel("Initiales ou nom de code du client").fill(code);
  await form.getByRole("button", { name: "Créer le mandat" }).click();
  await expect(page.getByText("Vous devez certifier que ce mandat est exclusif")).toBeVisible();
  await expect(page.getByText("Le nom du client est obligatoire")).toBeVisible();
  await page.getByLabel("Je certifie que ce mandat est exclusif").check();
  await page.getByLabel("Nom du client").fill("Client sans JS");
  await page.getByLabel("Adresse du client").fill("4 rue du HTML, 75002 Paris");
  await page.getByRole("button", { name: "Créer le mandat" }).click();
  await expect(page).toHaveURL(/\/mandates$/);
  await expect(page.getByRole("heading", { name: code })).toBeVisible();
  await context.close();
});
