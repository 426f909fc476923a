// The due-diligence list (issue 32 §3) in the browser, on the seeded file of the founding and
// the premium demo personas, which must still be open: the spec never shares a server with
// collaboration.spec.ts or ratings.spec.ts, which conclude it (APART in playwright.config.ts; with
// E2E_SERVERS=1, run it alone). The list
// from its template, a request added by the buyer's side, a question asked, the request answered
// with an uploaded document and the question answered by the seller's side, validated, the
// progress on the overview, and the XLSX export downloaded and read with exceljs. axe at 1280
// and 360 px on both sides. Then a guest of the seller's side answers a request with a document
// into a folder of their side and uploads a new version of it.
import ExcelJS from "exceljs";
import { expect, type Page } from "@playwright/test";
import { test } from "./typography-scan";
import { admitGuest, certificatePdfBuffer, checkAccessibility, FOUNDER, PREMIUM, signInAs, TWO_MEMBER_JOURNEY_MS, uniqueEmail } from "./fixtures";

async function openList(page: Page, counterpartName: string): Promise<void> {
  await page.goto("/dashboard/dossiers");
  await page.getByRole("link", { name: new RegExp(counterpartName) }).first().click();
  await expect(page.getByRole("heading", { name: `Dossier avec ${counterpartName}` })).toBeVisible();
  await page.getByRole("link", { name: "Diligences", exact: true }).click();
  await expect(page).toHaveURL(/\/diligences$/);
  await expect(page.getByText(/Vous intervenez côté/)).toBeVisible();
}

test("a request answered with a document, a question asked and answered, the XLSX export read back", async ({ browser }) => {
  test.setTimeout(TWO_MEMBER_JOURNEY_MS);
  const helene = await (await browser.newContext()).newPage();
  const thomas = await (await browser.newContext()).newPage();
  await signInAs(helene, FOUNDER.email);
  await signInAs(thomas, PREMIUM.email);
  await openList(helene, PREMIUM.name);
  await openList(thomas, FOUNDER.name);

  // The seeded file's mandates say who advises the seller.
  const heleneSells = (await helene.getByText("Vous intervenez côté cédant.").count()) > 0;
  const seller = heleneSells ? helene : thomas;
  const buyer = heleneSells ? thomas : helene;

  // The empty state, then the list from its template.
  await expect(buyer.getByTestId("dd-empty")).toContainText("Aucune liste de diligences pour l’instant");
  await checkAccessibility(buyer);
  await buyer.getByRole("button", { name: "Créer la liste" }).click();
  await expect(buyer.getByText("Liste de diligences créée")).toBeVisible();
  const total = await buyer.getByTestId("dd-item").count();
  expect(total).toBeGreaterThanOrEqual(20);
  await expect(buyer.getByTestId("dd-progress")).toHaveText(`0\u00a0/\u00a0${total} fourni ou validé`);

  // The buyer's side adds a request and asks a question on it.
  const title = `Attestation de régularité fiscale ${Date.now()}`;
  await buyer.getByLabel("Rubrique").selectOption("fiscal");
  await buyer.getByLabel("Intitulé").fill(title);
  await buyer.getByRole("button", { name: "Ajouter la demande" }).click();
  await expect(buyer.getByText("Demande ajoutée")).toBeVisible();
  await buyer.getByRole("link", { name: title }).click();
  await expect(buyer.getByRole("heading", { name: title })).toBeVisible();
  const question = "L’attestation couvre-t-elle aussi la TVA de l’exercice en cours\u00a0?";
  await buyer.getByLabel("Question", { exact: true }).fill(question);
  await buyer.getByRole("button", { name: "Poser la question" }).click();
  await expect(buyer.getByTestId("dd-question")).toContainText(question);
  await expect(buyer.getByTestId("dd-question").getByTestId("dd-question-status")).toHaveText("Ouverte");
  await checkAccessibility(buyer);

  // The seller's side answers it with a document uploaded from the request, then the question.
  await seller.reload();
  await seller.getByRole("link", { name: title }).click();
  const documentName = `attestation-fiscale-${Date.now()}.pdf`;
  await seller.getByLabel("Déposer un nouveau document").setInputFiles({ name: documentName, mimeType: "application/pdf", buffer: await certificatePdfBuffer() });
  await seller.getByRole("button", { name: "Déposer et rattacher" }).click();
  await expect(seller.getByTestId("dd-document")).toContainText(documentName);
  await seller.getByLabel("Changer le statut").selectOption({ label: "Fourni" });
  await seller.getByRole("button", { name: "Appliquer" }).click();
  await expect(seller.getByTestId("dd-status").first()).toHaveText("Fourni");
  await seller.getByLabel("Votre réponse").fill("Oui, elle couvre la TVA jusqu’au dernier mois déclaré.");
  await seller.getByRole("button", { name: "Répondre" }).click();
  await expect(seller.getByTestId("dd-question").getByTestId("dd-question-status")).toHaveText("Répondue");
  await checkAccessibility(seller);

  // The buyer's side reads the answer, validates the request and closes the question.
  await buyer.reload();
  await expect(buyer.getByTestId("dd-answer")).toHaveText("Oui, elle couvre la TVA jusqu’au dernier mois déclaré.");
  await buyer.getByLabel("Changer le statut").selectOption({ label: "Validé" });
  await buyer.getByRole("button", { name: "Appliquer" }).click();
  await expect(buyer.getByTestId("dd-status").first()).toHaveText("Validé");
  await buyer.getByRole("button", { name: "Clore la question" }).click();
  await expect(buyer.getByTestId("dd-question").getByTestId("dd-question-status")).toHaveText("Close");

  // The progress, on the list and on the file's overview.
  await buyer.getByRole("link", { name: "Toutes les diligences" }).click();
  await expect(buyer.getByTestId("dd-progress")).toHaveText(`1\u00a0/\u00a0${total + 1} fourni ou validé`);
  await checkAccessibility(buyer);
  await buyer.getByRole("link", { name: "Suivi", exact: true }).click();
  await expect(buyer.getByTestId("dd-progress-card").getByTestId("dd-progress")).toHaveText(`1\u00a0/\u00a0${total + 1} fourni ou validé`);

  // The XLSX export downloads; its rows are the list's.
  await buyer.getByRole("link", { name: "Diligences", exact: true }).click();
  const [download] = await Promise.all([buyer.waitForEvent("download"), buyer.getByRole("link", { name: "Exporter en XLSX" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^diligences-DR-\d{4}-\d{4}\.xlsx$/);
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(await download.path());
  const sheet = book.getWorksheet("Diligences")!;
  expect(sheet.rowCount).toBe(total + 2);
  const rows: string[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1).map((v) => String(v ?? ""))));
  expect(rows[0]).toEqual(["Rubrique", "Demande", "Statut", "Responsable", "Échéance", "Documents", "Questions ouvertes"]);
  const mine = rows.find((r) => r[1] === title);
  expect(mine).toEqual(["Fiscal", title, "Validé", "", "", documentName, "0"]);
  for (const p of [helene, thomas]) await p.context().close();
});

test("a guest of the seller's side answers a request into a folder, then uploads a new version", async ({ browser }) => {
  test.setTimeout(TWO_MEMBER_JOURNEY_MS);
  const helene = await (await browser.newContext()).newPage();
  const thomas = await (await browser.newContext()).newPage();
  const guest = await (await browser.newContext()).newPage();
  await signInAs(helene, FOUNDER.email);
  await signInAs(thomas, PREMIUM.email);
  await openList(helene, PREMIUM.name);
  await openList(thomas, FOUNDER.name);
  const heleneSells = (await helene.getByText("Vous intervenez côté cédant.").count()) > 0;
  const seller = heleneSells ? helene : thomas;
  const buyer = heleneSells ? thomas : helene;
  // Alone on its server the spec may start here: the list from its template first.
  if (await buyer.getByTestId("dd-empty").count()) {
    await buyer.getByRole("button", { name: "Créer la liste" }).click();
    await expect(buyer.getByText("Liste de diligences créée")).toBeVisible();
  }
  const filePath = new URL(seller.url()).pathname.replace(/\/diligences$/, "");

  // The seller's founder opens a folder of their side only and invites their chartered accountant.
  const folder = `Comptabilité cédant ${Date.now()}`;
  await seller.goto(`${filePath}/intervenants`);
  await seller.getByLabel("Nom", { exact: true }).fill(folder);
  await seller.getByLabel("Visibilité").selectOption("cedant");
  await seller.getByRole("button", { name: "Créer le dossier" }).click();
  await expect(seller.getByText(folder).first()).toBeVisible();
  const sharedPath = await admitGuest(seller, buyer, guest, filePath, {
    email: uniqueEmail("expert-cedant"),
    firstName: "Paule",
    lastName: "Chiffres",
    role: "expert_comptable",
    side: "cedant",
    rights: { voir: true, telecharger: true, deposer: true },
  });

  // The guest opens a request from the overview and answers it with a document into that folder.
  await guest.getByRole("link", { name: "Ouvrir la liste de diligences" }).click();
  await expect(guest.getByRole("heading", { name: "Diligences", exact: true })).toBeVisible();
  const request = guest.getByTestId("shared-dd-item").first().getByRole("link");
  const title = (await request.textContent())!.trim();
  await request.click();
  await expect(guest.getByRole("heading", { name: title })).toBeVisible();
  const requestId = new URL(guest.url()).pathname.split("/").pop()!;
  await checkAccessibility(guest);
  const answer = `grand-livre-${Date.now()}.pdf`;
  await guest.getByLabel("Dossier de documents").selectOption({ label: folder });
  await guest.getByLabel("Document qui répond à la demande").setInputFiles({ name: answer, mimeType: "application/pdf", buffer: await certificatePdfBuffer() });
  await guest.getByRole("button", { name: "Déposer et rattacher" }).click();
  await expect(guest.getByTestId("shared-dd-document")).toContainText(answer);

  // The seller's founder finds it among the file's documents, in the folder chosen.
  await seller.goto(`${filePath}/documents`);
  const filed = seller.getByRole("list", { name: `Documents\u00a0: ${folder}` }).getByTestId("document-item").filter({ hasText: answer });
  await expect(filed).toBeVisible();
  // Named after the guest who deposited it, not as a member who left; new to the founder until opened.
  await expect(filed).not.toContainText("Membre ayant quitté le réseau");
  await expect(filed.getByTestId("document-unread")).toHaveText("Nouveau");

  // A new version from the shared file: same folder, the first one kept under it.
  await guest.goto(sharedPath);
  const section = guest.getByRole("region", { name: `Dossier ${folder}` });
  const item = section.getByTestId("shared-document").filter({ hasText: answer });
  await item.getByText("Déposer une nouvelle version").click();
  const second = `grand-livre-corrige-${Date.now()}.pdf`;
  await item.getByLabel("Version\u00a02").setInputFiles({ name: second, mimeType: "application/pdf", buffer: await certificatePdfBuffer() });
  await item.getByRole("button", { name: "Déposer la version" }).click();
  const latest = section.getByTestId("shared-document").filter({ hasText: second });
  await expect(latest).toBeVisible();
  await latest.getByText("Versions précédentes (1)").click();
  await expect(latest.getByTestId("document-version")).toContainText(answer);
  await checkAccessibility(guest);

  // The seller's founder gives the request to the guest: its owner, told on its home page, which it marks read.
  await seller.goto(`${filePath}/diligences/${requestId}`);
  await seller.getByLabel("Responsable").selectOption({ label: "Paule Chiffres (expert-comptable, côté cédant)" });
  await seller.getByRole("form", { name: "Modifier la demande" }).getByRole("button", { name: "Enregistrer" }).click();
  await expect(seller.getByText("Demande mise à jour")).toBeVisible();
  await guest.goto(`${sharedPath}/diligences/${requestId}`);
  await expect(guest.getByTestId("shared-dd-owner")).toHaveText("Responsable\u00a0: vous");
  await guest.goto("/dossiers-partages");
  const news = guest.getByTestId("shared-news");
  await expect(news).toContainText("Demande de diligences à fournir");
  await checkAccessibility(guest);
  await guest.getByRole("button", { name: "Tout marquer comme lu" }).click();
  await expect(news.getByText("Nouveau", { exact: true })).toHaveCount(0);
  for (const p of [helene, thomas, guest]) await p.context().close();
});
