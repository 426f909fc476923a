// Security notices about the member's own account (password changed, two-factor turned on or
// off, account deleted). Transactional: always sent, no unsubscribe link.
import { defineEmailTemplate, EmailHeading, EmailNote, EmailParagraph } from "./layout";

export type SecurityEvent = "password-changed" | "two-factor-enabled" | "two-factor-disabled" | "account-deleted";

export type SecurityNoticeProps = {
  event: SecurityEvent;
  /** When it happened, already formatted (dd/MM/yyyy HH:mm, Paris time). */
  when: string;
};

const CONTENT: Record<SecurityEvent, { subject: string; body: string; unexpected: string }> = {
  "password-changed": {
    subject: "Votre mot de passe a été modifié",
    body: "Le mot de passe de votre compte vient d’être modifié. Vos autres sessions ont été fermées.",
    unexpected:
      "Si vous n’êtes pas à l’origine de cette modification, réinitialisez immédiatement votre mot de passe depuis la page de connexion («\u00a0Mot de passe oublié\u00a0?\u00a0») et contactez-nous.",
  },
  "two-factor-enabled": {
    subject: "Double authentification activée",
    body: "La double authentification par application a été activée sur votre compte. Un code vous sera demandé à chaque connexion.",
    unexpected:
      "Si vous n’êtes pas à l’origine de cette activation, réinitialisez immédiatement votre mot de passe et contactez-nous.",
  },
  "two-factor-disabled": {
    subject: "Double authentification désactivée",
    body: "La double authentification a été désactivée sur votre compte\u00a0: seul votre mot de passe protège désormais l’accès.",
    unexpected:
      "Si vous n’êtes pas à l’origine de cette désactivation, réinitialisez immédiatement votre mot de passe, réactivez la double authentification et contactez-nous.",
  },
  "account-deleted": {
    subject: "Votre compte a été supprimé",
    body: "Votre compte et les données personnelles associées ont été supprimés, comme vous l’avez demandé. Les messages que vous aviez envoyés restent visibles de leurs destinataires, sans votre nom ni votre adresse e-mail.",
    unexpected: "Si vous n’êtes pas à l’origine de cette suppression, contactez-nous sans attendre.",
  },
};

export const securityNotice = defineEmailTemplate<SecurityNoticeProps>({
  kind: "security-notice",
  subject: ({ event }) => CONTENT[event].subject,
  preheader: ({ event }) => CONTENT[event].body.slice(0, 140),
  reason: (_props, ctx) =>
    `Vous recevez cet e-mail de sécurité car une modification importante a été faite sur votre compte ${ctx.appName}.`,
  body: ({ event, when }) => (
    <>
      <EmailHeading>{CONTENT[event].subject}</EmailHeading>
      <EmailParagraph>Bonjour,</EmailParagraph>
      <EmailParagraph>{CONTENT[event].body}</EmailParagraph>
      <EmailNote>Date&nbsp;: {when}</EmailNote>
      <EmailNote>{CONTENT[event].unexpected}</EmailNote>
    </>
  ),
  text: ({ event, when }) =>
    ["Bonjour,", CONTENT[event].body, `Date\u00a0: ${when}`, CONTENT[event].unexpected].join("\n\n"),
});
