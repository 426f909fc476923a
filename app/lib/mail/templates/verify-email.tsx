import {
  defineEmailTemplate,
  EmailButton,
  EmailFallbackLink,
  EmailHeading,
  EmailNote,
  EmailParagraph,
} from "./layout";

export type VerifyEmailProps = { url: string };

export const verifyEmail = defineEmailTemplate<VerifyEmailProps>({
  kind: "verify-email",
  subject: () => "Confirmez votre adresse e-mail",
  preheader: (_props, ctx) => `Une dernière étape pour activer votre compte ${ctx.appName}.`,
  reason: (_props, ctx) =>
    `Vous recevez cet e-mail car cette adresse a été utilisée pour créer un compte sur ${ctx.appName}.`,
  body: ({ url }, ctx) => (
    <>
      <EmailHeading>Confirmez votre adresse e-mail</EmailHeading>
      <EmailParagraph>Bonjour,</EmailParagraph>
      <EmailParagraph>
        Merci pour votre inscription sur {ctx.appName}. Pour activer votre compte et poursuivre votre adhésion,
        veuillez confirmer votre adresse e-mail en cliquant sur le bouton ci-dessous.
      </EmailParagraph>
      <EmailButton href={url}>Confirmer mon adresse e-mail</EmailButton>
      <EmailNote>Ce lien est personnel et valable pour une durée limitée.</EmailNote>
      <EmailNote>
        Si vous n’êtes pas à l’origine de cette inscription, vous pouvez ignorer ce message&nbsp;: aucun compte ne sera
        activé.
      </EmailNote>
      <EmailFallbackLink href={url} />
    </>
  ),
  text: ({ url }, ctx) =>
    [
      "Bonjour,",
      `Merci pour votre inscription sur ${ctx.appName}. Pour activer votre compte et poursuivre votre adhésion, veuillez confirmer votre adresse e-mail en ouvrant le lien ci-dessous\u00a0:`,
      url,
      "Ce lien est personnel et valable pour une durée limitée.",
      "Si vous n’êtes pas à l’origine de cette inscription, vous pouvez ignorer ce message\u00a0: aucun compte ne sera activé.",
    ].join("\n\n"),
});
