// Sent when the team rejects an application (admin back office), with the optional reason.
import { defineEmailTemplate, EmailHeading, EmailNote, EmailParagraph } from "./layout";

export type ProfileRejectedProps = { firstName: string; reason: string | null; contactUrl: string };

export const profileRejected = defineEmailTemplate<ProfileRejectedProps>({
  kind: "profile-rejected",
  subject: (_props, ctx) => `Votre demande d’adhésion à ${ctx.appName}`,
  preheader: () => "La décision de notre équipe sur votre demande d’adhésion.",
  reason: (_props, ctx) => `Vous recevez cet e-mail car vous avez demandé à rejoindre ${ctx.appName}.`,
  body: ({ firstName, reason, contactUrl }, ctx) => (
    <>
      <EmailHeading>Votre demande d’adhésion</EmailHeading>
      <EmailParagraph>Bonjour {firstName},</EmailParagraph>
      <EmailParagraph>
        Après examen de votre dossier, notre équipe n’a pas pu valider votre demande d’adhésion à {ctx.appName}.
      </EmailParagraph>
      {reason ? <EmailParagraph>Motif indiqué&nbsp;: {reason}</EmailParagraph> : null}
      <EmailNote>
        Pour toute question, vous pouvez nous écrire depuis la page contact&nbsp;: <a href={contactUrl}>{contactUrl}</a>
      </EmailNote>
    </>
  ),
  text: ({ firstName, reason, contactUrl }, ctx) =>
    [
      `Bonjour ${firstName},`,
      `Après examen de votre dossier, notre équipe n’a pas pu valider votre demande d’adhésion à ${ctx.appName}.`,
      ...(reason ? [`Motif indiqué\u00a0: ${reason}`] : []),
      `Pour toute question, vous pouvez nous écrire depuis la page contact\u00a0: ${contactUrl}`,
    ].join("\n\n"),
});
