// Collaboration files, in the browser: the seeded file of the founding and the premium demo
// personas (scripts/seed-files.ts, left at "Échanges confidentiels"). Both members work on it
// in their own browser: messages with unread marks, stages, the two-sided closing; at 1280 and
// 360 px with axe; a third member gets a 404; the message form works without JavaScript.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import nodePath from "node:path";
import { expect, type Page } from "@playwright/test";
import { test } from "./typography-scan";
import { PDFDocument } from "pdf-lib";
import { checkAccessibility, DEMO_PASSWORD, FOUNDER, FREEMIUM, PREMIUM, signIn, signInAs, TWO_MEMBER_JOURNEY_MS } from "./fixtures";

async function openSharedFile(page: Page, counterpartName: string): Promise<string> {
  await page.goto("/dashboard/dossiers");
  await expect(page.getByRole("heading", { name: "Mes dossiers" })).toBeVisible();
  await page.getByRole("link", { name: new RegExp(counterpartName) }).first().click();
  await expect(page.getByRole("heading", { name: `Dossier avec ${counterpartName}` })).toBeVisible();
  return new URL(page.url()).pathname;
}

// Before the closing below: a concluded file takes no new documents.
test("document room: one member shares a PDF, the other opens it watermarked, the uploader sees the access", async ({ browser }) => {
  test.setTimeout(TWO_MEMBER_JOURNEY_MS);
  const thomas = await (await browser.newContext()).newPage();
  const helene = await (await browser.newContext()).newPage();
  await signInAs(thomas, PREMIUM.email);
  await signInAs(helene, FOUNDER.email);
  const path = await openSharedFile(thomas, FOUNDER.name);
  await thomas.getByRole("link", { name: "Documents" }).click();
  await expect(thomas).toHaveURL(new RegExp(`${path}/documents$`));
  // A real PDF, made here: one page, with a name that tries to climb directories.
  const pdf = await PDFDocument.create();
  pdf.addPage().drawText("Memorandum", { x: 50, y: 700 });
  const name = `../../memorandum-${Date.now()}.pdf`;
  await thomas.getByLabel("Fichier").setInputFiles({ name, mimeType: "application/pdf", buffer: Buffer.from(await pdf.save()) });
  await thomas.getByRole("button", { name: "Partager le document" }).click();
  const item = thomas.getByTestId("document-item").first();
  await expect(item).toContainText("memorandum-");
  await expect(item).not.toContainText("../");
  await checkAccessibility(thomas);

  await helene.goto(`${path}/documents`);
  const theirs = helene.getByTestId("document-item").first();
  await expect(theirs).toContainText("memorandum-");
  // New to the other member until they open it.
  await expect(theirs.getByTestId("document-unread")).toHaveText("Nouveau");
  const href = await theirs.getByRole("link", { name: /^Consulter/ }).getAttribute("href");
  const res = await helene.request.get(href!);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toBe("application/pdf");
  const served = await PDFDocument.load(await res.body());
  expect(served.getPageCount()).toBe(1);

  await thomas.reload();
  await expect(thomas.getByTestId("document-item").first().getByText(/Consultations \(1\)/)).toBeVisible();
  await helene.reload();
  await expect(helene.getByTestId("document-item").first().getByTestId("document-unread")).toHaveCount(0);
  for (const p of [thomas, helene]) await p.context().close();
});

// Before the closing below: the agreement is proposed on a working file.
test("fee-sharing agreement: one member proposes it, both sign, either downloads the signed PDF; the timeline is exported", async ({ browser }) => {
  test.setTimeout(TWO_MEMBER_JOURNEY_MS);
  const thomas = await (await browser.newContext()).newPage();
  const helene = await (await browser.newContext()).newPage();
  await signInAs(thomas, PREMIUM.email);
  await signInAs(helene, FOUNDER.email);
  const path = await openSharedFile(thomas, FOUNDER.name);
  await thomas.getByRole("link", { name: "Convention" }).click();
  await expect(thomas).toHaveURL(new RegExp(`${path}/convention$`));
  await expect(thomas.getByRole("heading", { name: "Convention de partage d’honoraires" })).toBeVisible();
  await checkAccessibility(thomas);

  // Thomas proposes: a goodwill sale is due at the deed only (Hoguet law).
  await thomas.getByLabel("Type d’opération").selectOption({ label: "Cession de fonds de commerce" });
  await expect(thomas.getByLabel("Quand la part est-elle due\u00a0?").locator("option")).toHaveCount(1);
  await expect(thomas.getByTestId("agreement-due-hint")).toContainText("loi Hoguet");
  await thomas.getByLabel("Votre part (%)").fill("60");
  await thomas.getByLabel("Part de votre confrère (%)").fill("40");
  await thomas.getByLabel("Clauses particulières (facultatif)").fill("Diligences\u00a0: recherche de l’acquéreur et audit.");
  // The parties as a contract names them: what the profiles do not hold is asked.
  const firms = [
    ["Votre structure", "Cabinet Thomas", "SAS", "412356784", "12 rue de la Paix, 75002 Paris", "Président"],
    [`Structure de ${FOUNDER.name}`, "Marchand Conseil", "SARL", "832154769", "3 quai Saint-Antoine, 69002 Lyon", "Gérante"],
  ] as const;
  for (const [group, company, legalForm, siren, address, capacity] of firms) {
    const fieldset = thomas.getByRole("group", { name: group });
    await fieldset.getByLabel("Dénomination").fill(company);
    await fieldset.getByLabel("Forme juridique").fill(legalForm);
    await fieldset.getByLabel("SIREN").fill(siren);
    await fieldset.getByLabel("Adresse du siège ou du cabinet").fill(address);
    await fieldset.getByLabel("Signataire\u00a0: en qualité de").fill(capacity);
  }
  // The draft PDF first, in a new tab, marked « Projet »; nothing is proposed.
  const draft = thomas.context().waitForEvent("response", (r) => r.url().endsWith(`${path}/convention/apercu`));
  await thomas.getByRole("button", { name: "Aperçu du PDF" }).click();
  const draftResponse = await draft;
  expect(draftResponse.status()).toBe(200);
  expect(draftResponse.headers()["content-type"]).toBe("application/pdf");
  // The tab shows it in the browser's viewer: the same form posted again gives its bytes.
  const posted = Object.fromEntries(new URLSearchParams(draftResponse.request().postData() ?? ""));
  expect(posted).toMatchObject({ operationType: "fonds_de_commerce", myShare: "60", theirCompany: "Marchand Conseil" });
  const replay = await thomas.request.post(draftResponse.url(), { form: posted });
  expect((await PDFDocument.load(await replay.body())).getTitle()).toMatch(/^Projet — Convention de partage d’honoraires/);
  await expect(thomas.getByTestId("agreement-empty")).toBeVisible();
  await thomas.getByRole("button", { name: "Proposer la convention" }).click();
  await expect(thomas.getByText("Convention proposée\u00a0: votre confrère est invité à la signer.")).toBeVisible();
  await expect(thomas.getByTestId("agreement-status")).toHaveText("En attente de signature");

  // Thomas signs: consent and password.
  await thomas.getByRole("checkbox", { name: /J’ai lu la convention/ }).check();
  await thomas.getByLabel("Votre mot de passe").fill(DEMO_PASSWORD);
  await thomas.getByRole("button", { name: "Signer la convention" }).click();
  await expect(thomas.getByText("Convention signée.", { exact: true })).toBeVisible();
  await expect(thomas.getByText(/Vous avez signé cette version/)).toBeVisible();

  // Hélène: the terms to sign first, her firm as Thomas typed it; other conditions are folded
  // away, prefilled with these terms (her 40 %, never 50/50).
  await helene.goto(`${path}/convention`);
  await expect(helene.getByTestId("agreement-current")).toContainText("Signée par Thomas");
  await expect(helene.getByTestId("agreement-parties")).toContainText("Marchand Conseil, SARL, SIREN 832154769");
  await expect(helene.getByTestId("agreement-fingerprint")).toContainText("vérifier que ce PDF n’a pas été modifié");
  await expect(helene.getByTestId("agreement-sha").first()).toBeHidden();
  const other = helene.getByTestId("agreement-propose");
  await expect(other).not.toHaveAttribute("open", "");
  await expect(helene.getByLabel("Votre part (%)")).toBeHidden();
  await other.getByText("Proposer d’autres conditions").click();
  await expect(helene.getByLabel("Votre part (%)")).toHaveValue("40");
  await expect(helene.getByLabel("Part de votre confrère (%)")).toHaveValue("60");
  await expect(helene.getByLabel("Type d’opération")).toHaveValue("fonds_de_commerce");
  await checkAccessibility(helene);
  await helene.getByRole("checkbox", { name: /J’ai lu la convention/ }).check();
  await helene.getByLabel("Votre mot de passe").fill("mauvais-mot-de-passe");
  await helene.getByRole("button", { name: "Signer la convention" }).click();
  await expect(helene.getByRole("alert").filter({ hasText: "Mot de passe incorrect" })).toBeVisible();
  await helene.getByRole("checkbox", { name: /J’ai lu la convention/ }).check();
  await helene.getByLabel("Votre mot de passe").fill(DEMO_PASSWORD);
  await helene.getByRole("button", { name: "Signer la convention" }).click();
  await expect(helene.getByText("Convention signée par les deux membres.")).toBeVisible();
  await expect(helene.getByTestId("agreement-status")).toHaveText("Signée par les deux membres");

  // The signed PDF: original pages + the certificate, its hash the one shown.
  const signedSha = (await helene.getByTestId("agreement-sha").nth(1).textContent())?.trim();
  const href = await helene.getByRole("link", { name: "Télécharger la convention signée" }).getAttribute("href");
  const res = await thomas.request.get(href!);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toBe("application/pdf");
  const bytes = await res.body();
  expect(createHash("sha256").update(bytes).digest("hex")).toBe(signedSha);
  const original = await thomas.request.get(href!.replace("exemplaire=signe", "exemplaire=original"));
  const pages = (await PDFDocument.load(await original.body())).getPageCount();
  expect((await PDFDocument.load(bytes)).getPageCount()).toBe(pages + 1);
  // Sealed by the platform (decision 050): poppler's pdfsig finds the signature valid, whole document.
  const dir = mkdtempSync(nodePath.join(os.tmpdir(), "rt-e2e-seal-"));
  writeFileSync(nodePath.join(dir, "signee.pdf"), bytes);
  const report = spawnSync("pdfsig", [nodePath.join(dir, "signee.pdf")], { encoding: "utf8" }).stdout;
  rmSync(dir, { recursive: true, force: true });
  expect(report).toContain("Signature Validation: Signature is Valid.");
  expect(report).toContain("Total document signed");
  await thomas.reload();
  await expect(thomas.getByRole("button", { name: "Proposer la convention" })).toHaveCount(0);

  // The evidence export, from the file's page: its hash joins the timeline.
  await thomas.goto(path);
  const exportHref = await thomas.getByTestId("evidence-export").getAttribute("href");
  const exported = await thomas.request.get(exportHref!);
  expect(exported.status()).toBe(200);
  const exportSha = exported.headers()["x-content-sha256"];
  expect(createHash("sha256").update(await exported.body()).digest("hex")).toBe(exportSha);
  await thomas.reload();
  await expect(thomas.getByRole("list", { name: "Historique du dossier" })).toContainText(`SHA-256\u00a0: ${exportSha}`);
  for (const p of [thomas, helene]) await p.context().close();
});

test("two members carry a file from the exchanges to the closing", async ({ browser }) => {
  test.setTimeout(TWO_MEMBER_JOURNEY_MS);
  const thomas = await (await browser.newContext()).newPage();
  const helene = await (await browser.newContext()).newPage();
  await signInAs(thomas, PREMIUM.email);
  await signInAs(helene, FOUNDER.email);

  // The list and the file, at both widths, with axe.
  await thomas.goto("/dashboard/dossiers");
  await expect(thomas.getByRole("link", { name: "Dossiers" })).toHaveAttribute("aria-current", "page");
  await checkAccessibility(thomas);
  const path = await openSharedFile(thomas, FOUNDER.name);
  await expect(thomas.getByTestId("file-stage").first()).toHaveText("Échanges confidentiels");
  await expect(thomas.getByRole("list", { name: "Historique du dossier" })).toContainText("Mise en relation confirmée\u00a0: ouverture du dossier");
  // The undertaking to sign heads « Suivi », signed right there, and is the tab's one primary action.
  await expect(thomas.getByRole("main").locator("h3").first()).toHaveText("Client de votre confrère");
  await expect(thomas.getByTestId("file-undertaking").getByRole("button", { name: "Signer et voir l’identité du client" })).toHaveAttribute("data-variant", "default");
  await expect(thomas.getByRole("button", { name: "Envoyer" })).toHaveAttribute("data-variant", "outline");
  await expect(thomas.getByText(/panneau de matching/)).toHaveCount(0);
  await checkAccessibility(thomas);

  // A message: the other member sees it unread, in the list and in the file.
  const text = `Point d’étape ${Date.now()}\u00a0: le client a validé la lettre d’intention.`;
  await thomas.getByLabel("Votre message").fill(text);
  await thomas.getByRole("button", { name: "Envoyer" }).click();
  await expect(thomas.getByText("Message envoyé.")).toBeVisible();
  await expect(thomas.getByRole("list", { name: "Messages du dossier" })).toContainText(text);

  await helene.goto("/dashboard/dossiers");
  const item = helene.getByRole("listitem").filter({ hasText: PREMIUM.name }).first();
  await expect(item.getByTestId("file-pending")).toHaveText("Messages non lus");
  await openSharedFile(helene, PREMIUM.name);
  const mine = helene.getByRole("listitem").filter({ hasText: text });
  await expect(mine.getByText("Nouveau")).toBeVisible();

  // Stages: forward by one member, the other sees it in the timeline.
  await thomas.getByRole("button", { name: "Passer à l’étape «\u00a0Documents partagés\u00a0»" }).click();
  await expect(thomas.getByText("Étape du dossier mise à jour.")).toBeVisible();
  await thomas.getByRole("button", { name: "Passer à l’étape «\u00a0Offre / lettre d’intention\u00a0»" }).click();
  await expect(thomas.getByTestId("file-stage").first()).toHaveText("Offre / lettre d’intention");

  // Closing: Thomas proposes, cannot confirm his own proposal; Hélène confirms.
  await thomas.getByLabel("Date de signature de l’acte").fill(new Date().toISOString().slice(0, 10));
  await thomas.getByLabel("Tranche de montant (facultatif)").selectOption({ label: "De 1\u00a0M€ à 3\u00a0M€" });
  await thomas.getByRole("button", { name: "Proposer de conclure" }).click();
  await expect(thomas.getByText("Conclusion proposée\u00a0: elle sera effective quand votre confrère l’aura confirmée.")).toBeVisible();
  await expect(thomas.getByRole("button", { name: "Confirmer la conclusion" })).toHaveCount(0);

  await helene.goto(path);
  await expect(helene.getByRole("heading", { name: "Conclusion à confirmer" })).toBeVisible();
  await checkAccessibility(helene);
  await helene.getByRole("button", { name: "Confirmer la conclusion" }).click();
  await expect(helene.getByText("Dossier conclu. Félicitations\u00a0!")).toBeVisible();
  await expect(helene.getByTestId("file-stage").first()).toHaveText("Conclu");
  await expect(helene.getByRole("list", { name: "Historique du dossier" })).toContainText("Conclusion confirmée\u00a0: dossier conclu");

  await thomas.reload();
  await expect(thomas.getByTestId("file-stage").first()).toHaveText("Conclu");
  await expect(thomas.getByRole("button", { name: /Passer à l’étape/ })).toHaveCount(0);

  // Anyone else: 404, as a page.
  const julie = await (await browser.newContext()).newPage();
  await signInAs(julie, FREEMIUM.email);
  const res = await julie.goto(path);
  expect(res?.status()).toBe(404);
  await expect(julie.getByText("Ce dossier n’existe pas ou vous n’en êtes pas membre.")).toBeVisible();

  for (const p of [thomas, helene, julie]) await p.context().close();
});

test("without JavaScript, the message form of a file works", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page, PREMIUM.email, DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await openSharedFile(page, FOUNDER.name);
  const text = `Sans JavaScript ${Date.now()}`;
  await page.getByLabel("Votre message").fill(text);
  await page.getByRole("button", { name: "Envoyer" }).click();
  await expect(page.getByRole("list", { name: "Messages du dossier" })).toContainText(text);
  await context.close();
});
