// Mediation (issue 14 §4) in the browser: on the seeded file of the founding and the premium demo
// personas, Hélène asks for a mediation; the team takes it on, writes in the exchange and
// decides; Hélène reads the decision. axe and the 360 px overflow check on both sides.
import { expect } from "@playwright/test";
import { test } from "./typography-scan";
import { checkAccessibility, FOUNDER, PREMIUM, signInAs, signInAsAdmin, TWO_MEMBER_JOURNEY_MS } from "./fixtures";

test("a member opens a mediation, the team moves it to en cours, answers and decides; the member reads the decision", async ({ browser }) => {
  test.setTimeout(TWO_MEMBER_JOURNEY_MS);
  const subject = `Désaccord sur le calendrier ${Date.now()}`;
  const helene = await (await browser.newContext()).newPage();
  await signInAs(helene, FOUNDER.email);
  await helene.goto("/dashboard/dossiers");
  await helene.getByRole("link", { name: new RegExp(PREMIUM.name) }).first().click();
  await expect(helene.getByRole("heading", { name: `Dossier avec ${PREMIUM.name}` })).toBeVisible();
  await helene.getByRole("link", { name: "Médiation", exact: true }).click();
  await expect(helene.getByRole("heading", { name: "Demander une médiation" })).toBeVisible();
  await helene.getByLabel("Objet").fill(subject);
  await helene.getByLabel("Exposé des faits").fill("Le confrère a repoussé trois fois la réunion prévue avec le cédant, sans explication.");
  await helene.getByRole("button", { name: "Envoyer la demande" }).click();
  const mine = helene.getByTestId("mediation").filter({ hasText: subject });
  await expect(mine.getByTestId("mediation-status")).toHaveText("Ouverte");
  await checkAccessibility(helene);

  const team = await (await browser.newContext()).newPage();
  await signInAsAdmin(team);
  await team.goto("/admin/mediations?statut=open");
  await team.getByRole("link", { name: subject }).click();
  await team.getByRole("button", { name: "Passer «\u00a0En cours\u00a0»" }).click();
  await expect(team.getByTestId("mediation-status")).toHaveText("En cours");
  await team.getByLabel("Votre message").fill("Nous avons bien reçu votre demande\u00a0: pouvez-vous nous indiquer les dates prévues\u00a0?");
  await team.getByRole("button", { name: "Envoyer le message" }).click();
  await expect(team.getByTestId("mediation-message").first()).toContainText("L’équipe du réseau");
  await expect(team.getByTestId("mediated-file")).toContainText("Médiation ouverte");
  await checkAccessibility(team);
  await team.getByLabel("Issue").selectOption("resolved");
  await team.getByLabel("Décision écrite (communiquée aux deux membres)").fill("Les deux membres ont convenu d’une nouvelle date de réunion\u00a0; aucun manquement n’est retenu.");
  await team.getByRole("button", { name: "Enregistrer la décision" }).click();
  await expect(team.getByTestId("mediation-status")).toHaveText("Résolue");
  await expect(team.getByTestId("mediated-file")).toHaveCount(0);

  await helene.reload();
  await expect(mine.getByTestId("mediation-status")).toHaveText("Résolue");
  await expect(mine.getByTestId("mediation-decision")).toContainText("aucun manquement n’est retenu");
  await expect(mine.getByTestId("mediation-message")).toContainText("pouvez-vous nous indiquer les dates");
  for (const p of [helene, team]) await p.context().close();
});
