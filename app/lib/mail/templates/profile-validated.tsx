// Welcome e-mail sent when the team validates a profile (admin back office).
import { defineEmailTemplate, EmailButton, EmailFallbackLink, EmailHeading, EmailNote, EmailParagraph } from "./layout";

/** `membershipTerms`: the founding offer's terms as the offers module states them (features/membership/offers). */
export type ProfileValidatedProps = { firstName: string; dashboardUrl: string; foundingMember: boolean; membershipTerms?: string | null };

export const profileValidated = defineEmailTemplate<ProfileValidatedProps>({
  kind: "profile-validated",
  subject: (_props, ctx) => `Bienvenue sur ${ctx.appName}\u00a0: votre profil est validé`,
  preheader: () => "Votre espace membre est ouvert.",
  reason: (_props, ctx) => `Vous recevez cet e-mail car vous avez demandé à rejoindre ${ctx.appName}.`,
  body: ({ firstName, dashboardUrl, foundingMember, membershipTerms }, ctx) => (
    <>
      <EmailHeading>Bienvenue dans le réseau, {firstName}&nbsp;!</EmailHeading>
      <EmailParagraph>
        Notre équipe a validé votre profil&nbsp;: vous êtes désormais membre de {ctx.appName}. Votre espace membre est ouvert
        et votre fiche apparaît dans l’annuaire des professionnels agréés.
      </EmailParagraph>
      {foundingMember ? (
        <EmailParagraph>Votre adhésion de membre fondateur est active&nbsp;: merci de votre confiance.</EmailParagraph>
      ) : null}
      {foundingMember && membershipTerms ? <EmailNote>{membershipTerms}</EmailNote> : null}
      <EmailButton href={dashboardUrl}>Accéder à mon espace membre</EmailButton>
      <EmailNote>Complétez votre profil (secteurs, département, présentation) pour être trouvé plus facilement.</EmailNote>
      <EmailFallbackLink href={dashboardUrl} />
    </>
  ),
  text: ({ firstName, dashboardUrl, foundingMember, membershipTerms }, ctx) =>
    [
      `Bienvenue dans le réseau, ${firstName}\u00a0!`,
      `Notre équipe a validé votre profil\u00a0: vous êtes désormais membre de ${ctx.appName}. Votre espace membre est ouvert et votre fiche apparaît dans l’annuaire des professionnels agréés.`,
      ...(foundingMember ? ["Votre adhésion de membre fondateur est active\u00a0: merci de votre confiance."] : []),
      ...(foundingMember && membershipTerms ? [membershipTerms] : []),
      `Accéder à mon espace membre\u00a0: ${dashboardUrl}`,
      "Complétez votre profil (secteurs, département, présentation) pour être trouvé plus facilement.",
    ].join("\n\n"),
});
