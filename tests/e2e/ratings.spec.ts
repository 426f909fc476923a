// Ratings after a collaboration (issue 14 §3) in the browser: on the seeded file of the founding
// and the premium demo personas (concluded here if an earlier spec has not done it), both rate
// each other; the ratings show once both are in (double blind) and the internal directory card
// shows the average; the rated member answers, and another member reads the rating, the answer and
// the responsiveness on the profile and reports the rating there. axe and the 360 px overflow
// check on the rating page.
import { expect, type Page } from "@playwright/test";
import { test } from "./typography-scan";
import { checkAccessibility, FOUNDER, FREEMIUM, PREMIUM, signInAs, TWO_MEMBER_JOURNEY_MS } from "./fixtures";

async function openFile(page: Page, counterpartName: string): Promise<string> {
  await page.goto("/dashboard/dossiers");
  await page.getByRole("link", { name: new RegExp(counterpartName) }).first().click();
  await expect(page.getByRole("heading", { name: `Dossier avec ${counterpartName}` })).toBeVisible();
  return new URL(page.url()).pathname;
}

async function rate(page: Page, score: string, comment: string) {
  for (const criterion of ["Réactivité", "Professionnalisme", "Confidentialité"]) {
    await page.getByRole("radio", { name: `${criterion}\u00a0: ${score} sur 5` }).check({ force: true });
  }
  await page.getByLabel("Commentaire (facultatif)").fill(comment);
  await page.getByRole("button", { name: "Envoyer mon évaluation" }).click();
  await expect(page.getByText("Votre évaluation est enregistrée")).toBeVisible();
}

test("two members rate a concluded file; the ratings show once both rated; the directory card shows the average", async ({ browser }) => {
  test.setTimeout(TWO_MEMBER_JOURNEY_MS);
  const thomas = await (await browser.newContext()).newPage();
  const helene = await (await browser.newContext()).newPage();
  await signInAs(thomas, PREMIUM.email);
  await signInAs(helene, FOUNDER.email);
  const path = await openFile(thomas, FOUNDER.name);

  // The file may have been taken on by earlier specs (collaboration, mediation): end it from
  // whatever state it is in (a rating needs a concluded or abandoned file).
  const stage = thomas.getByTestId("file-stage").first();
  const ended = async () => ["Conclu", "Abandonné"].includes(((await stage.textContent()) ?? "").trim());
  if (!(await ended())) {
    for (const next of ["Échanges confidentiels", "Documents partagés", "Offre / lettre d’intention"]) {
      const step = thomas.getByRole("button", { name: `Passer à l’étape «\u00a0${next}\u00a0»` });
      if (await step.isVisible()) {
        await step.click();
        await expect(stage).toHaveText(next);
      }
    }
    const confirmMine = thomas.getByRole("button", { name: "Confirmer la conclusion" });
    if (await confirmMine.isVisible()) {
      // Hélène proposed it earlier: Thomas confirms.
      await confirmMine.click();
    } else {
      const date = thomas.getByLabel("Date de signature de l’acte");
      if (await date.isVisible()) {
        await date.fill(new Date().toISOString().slice(0, 10));
        await thomas.getByRole("button", { name: "Proposer de conclure" }).click();
        await expect(thomas.getByRole("heading", { name: "Conclusion proposée" })).toBeVisible();
      }
      await helene.goto(path);
      await helene.getByRole("button", { name: "Confirmer la conclusion" }).click();
      await expect(helene.getByTestId("file-stage").first()).toHaveText("Conclu");
    }
    await thomas.goto(path);
    expect(await ended()).toBe(true);
  }

  // Thomas rates first: blind for both.
  await thomas.goto(`${path}/evaluation`);
  await checkAccessibility(thomas);
  await rate(thomas, "5", "Échanges rapides et très professionnels.");
  await expect(thomas.getByText(/Votre évaluation restera masquée/)).toBeVisible();
  await helene.goto(`${path}/evaluation`);
  await expect(helene.getByText(/Votre confrère vous a évalué/)).toBeVisible();
  await expect(helene.getByText("Échanges rapides et très professionnels.")).toHaveCount(0);

  // Hélène rates: both ratings show.
  await rate(helene, "4", "Suivi rigoureux du dossier.");
  await expect(helene.getByText("Échanges rapides et très professionnels.")).toBeVisible();
  await thomas.reload();
  await expect(thomas.getByText("Suivi rigoureux du dossier.")).toBeVisible();
  await checkAccessibility(thomas);

  // The internal directory card of Hélène shows her average to Thomas.
  await thomas.goto(`/dashboard/annuaire?q=${encodeURIComponent("Hélène Marchand")}`);
  await expect(thomas.getByRole("heading", { name: FOUNDER.name })).toBeVisible();
  await expect(thomas.getByTestId("peer-ratings").first()).toContainText("/5 (");

  // Thomas answers Hélène's rating, publicly.
  await thomas.goto(`${path}/evaluation`);
  await thomas.getByLabel("Votre réponse (publique, une seule fois)").fill("Merci pour ce suivi attentif.");
  await thomas.getByRole("button", { name: "Publier ma réponse" }).click();
  await expect(thomas.getByText("Votre réponse est publiée")).toBeVisible();

  // Julie, another member, reads Thomas's profile (rating, answer, responsiveness) and reports the
  // rating there: the rating and its answer stay until the team decides.
  const julie = await (await browser.newContext()).newPage();
  await signInAs(julie, FREEMIUM.email);
  await julie.goto(`/annuaire?q=${encodeURIComponent(PREMIUM.name)}`);
  await julie.locator(`a[href^="/consultant/"]`).filter({ hasText: PREMIUM.name }).first().click();
  await expect(julie.getByRole("heading", { level: 1, name: PREMIUM.name })).toBeVisible();
  await expect(julie.getByTestId("responsiveness")).toContainText("Réactivité sur les 90 derniers jours");
  const rating = julie.getByTestId("rating").filter({ hasText: "Suivi rigoureux du dossier." });
  await rating.getByText("Signaler", { exact: true }).click();
  await rating.getByLabel("Motif du signalement").fill("Ce commentaire ne correspond pas à ce que j’ai vu.");
  await rating.getByRole("button", { name: "Envoyer le signalement" }).click();
  await expect(julie.getByText("Le signalement a été transmis à l’équipe")).toBeVisible();
  await expect(rating.getByText("Merci pour ce suivi attentif.")).toBeVisible();
  await checkAccessibility(julie);
  for (const p of [thomas, helene, julie]) await p.context().close();
});
