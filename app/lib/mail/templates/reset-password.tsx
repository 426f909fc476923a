import {
  defineEmailTemplate,
  EmailButton,
  EmailFallbackLink,
  EmailHeading,
  EmailNote,
  EmailParagraph,
} from "./layout";

export type ResetPasswordProps = { url: string };

export const resetPassword = defineEmailTemplate<ResetPasswordProps>({
  kind: "reset-password",
  subject: () => "Réinitialisation de votre mot de passe",
  preheader: () => "Choisissez un nouveau mot de passe pour votre compte.",
  reason: (_props, ctx) =>
    `Vous recevez cet e-mail car une réinitialisation du mot de passe a été demandée pour votre compte ${ctx.appName}.`,
  body: ({ url }, ctx) => (
    <>
      <EmailHeading>Réinitialisation de votre mot de passe</EmailHeading>
      <EmailParagraph>Bonjour,</EmailParagraph>
      <EmailParagraph>
        Nous avons reçu une demande de réinitialisation du mot de passe de votre compte {ctx.appName}. Pour choisir
        un nouveau mot de passe, cliquez sur le bouton ci-dessous.
      </EmailParagraph>
      <EmailButton href={url}>Choisir un nouveau mot de passe</EmailButton>
      <EmailNote>Ce lien est personnel, à usage unique et valable pour une durée limitée.</EmailNote>
      <EmailNote>
        Si vous n’avez pas demandé cette réinitialisation, ignorez ce message&nbsp;: votre mot de passe actuel reste
        inchangé.
      </EmailNote>
      <EmailFallbackLink href={url} />
    </>
  ),
  text: ({ url }, ctx) =>
    [
      "Bonjour,",
      `Nous avons reçu une demande de réinitialisation du mot de passe de votre compte ${ctx.appName}. Pour choisir un nouveau mot de passe, ouvrez le lien ci-dessous\u00a0:`,
      url,
      "Ce lien est personnel, à usage unique et valable pour une durée limitée.",
      "Si vous n’avez pas demandé cette réinitialisation, ignorez ce message\u00a0: votre mot de passe actuel reste inchangé.",
    ].join("\n\n"),
});
