// Sent when the team validates or rejects a certified-deal reference (admin back office).
import { defineEmailTemplate, EmailButton, EmailFallbackLink, EmailHeading, EmailParagraph } from "./layout";

export type DealReviewedProps = {
  firstName: string;
  deal: string;
  year: number;
  outcome: "validated" | "rejected";
  reason: string | null;
  profileUrl: string;
};

export const dealReviewed = defineEmailTemplate<DealReviewedProps>({
  kind: "deal-reviewed",
  subject: ({ outcome }) => (outcome === "validated" ? "Votre référence a été validée" : "Votre référence n’a pas été validée"),
  preheader: ({ deal, year }) => `${deal} (${year})`,
  reason: (_props, ctx) => `Vous recevez cet e-mail car vous avez soumis une référence sur ${ctx.appName}.`,
  body: ({ firstName, deal, year, outcome, reason, profileUrl }) => (
    <>
      <EmailHeading>{outcome === "validated" ? "Votre référence a été validée" : "Votre référence n’a pas été validée"}</EmailHeading>
      <EmailParagraph>Bonjour {firstName},</EmailParagraph>
      <EmailParagraph>
        {outcome === "validated"
          ? `Notre équipe a validé votre référence «\u00a0${deal}\u00a0» (${year}). Elle apparaît désormais parmi vos transactions certifiées.`
          : `Notre équipe n’a pas pu valider votre référence «\u00a0${deal}\u00a0» (${year}).`}
      </EmailParagraph>
      {outcome === "rejected" && reason ? <EmailParagraph>Motif indiqué&nbsp;: {reason}</EmailParagraph> : null}
      <EmailButton href={profileUrl}>Voir mon profil</EmailButton>
      <EmailFallbackLink href={profileUrl} />
    </>
  ),
  text: ({ firstName, deal, year, outcome, reason, profileUrl }) =>
    [
      `Bonjour ${firstName},`,
      outcome === "validated"
        ? `Notre équipe a validé votre référence «\u00a0${deal}\u00a0» (${year}). Elle apparaît désormais parmi vos transactions certifiées.`
        : `Notre équipe n’a pas pu valider votre référence «\u00a0${deal}\u00a0» (${year}).`,
      ...(outcome === "rejected" && reason ? [`Motif indiqué\u00a0: ${reason}`] : []),
      `Voir mon profil\u00a0: ${profileUrl}`,
    ].join("\n\n"),
});
