// Generic notification other features reuse (match request accepted, profile validated…).
// Every string may carry user content: React escapes it in the HTML version.
import {
  defineEmailTemplate,
  EmailButton,
  EmailFallbackLink,
  EmailHeading,
  EmailNote,
  EmailParagraph,
  emailStyles,
  safeUrl,
} from "./layout";

export type NotificationProps = {
  /** Heading, also the subject. */
  title: string;
  intro: string;
  /** Further paragraphs. */
  lines?: string[];
  /** The call to action appears only when both are given. */
  ctaLabel?: string;
  ctaUrl?: string;
  /** The footer line ("Vous recevez cet e-mail car …"); a generic one by default. */
  footer?: string;
  /**
   * Link that turns this kind of notification off (features/account unsubscribeUrl). When given,
   * a last line offers it, in the HTML and the text version.
   */
  unsubscribeUrl?: string;
};

const UNSUBSCRIBE_INTRO = "Vous ne souhaitez plus recevoir ce type d’e-mail\u00a0?";

export const notification = defineEmailTemplate<NotificationProps>({
  kind: "notification",
  subject: ({ title }) => title.replace(/[ \t\r\n]+/g, " ").trim(),
  preheader: ({ intro }) => intro.replace(/[ \t\r\n]+/g, " ").trim().slice(0, 140),
  reason: ({ footer }, ctx) => footer ?? `Vous recevez cet e-mail car vous êtes inscrit sur ${ctx.appName}.`,
  body: ({ title, intro, lines = [], ctaLabel, ctaUrl, unsubscribeUrl }) => (
    <>
      <EmailHeading>{title}</EmailHeading>
      <EmailParagraph>{intro}</EmailParagraph>
      {lines.map((line, i) => (
        <EmailParagraph key={i}>{line}</EmailParagraph>
      ))}
      {ctaLabel && ctaUrl ? (
        <>
          <EmailButton href={ctaUrl}>{ctaLabel}</EmailButton>
          <EmailFallbackLink href={ctaUrl} />
        </>
      ) : null}
      {unsubscribeUrl ? (
        <EmailNote>
          {UNSUBSCRIBE_INTRO}{" "}
          <a href={safeUrl(unsubscribeUrl)} style={emailStyles.link}>
            Se désabonner
          </a>
        </EmailNote>
      ) : null}
    </>
  ),
  text: ({ title, intro, lines = [], ctaLabel, ctaUrl, unsubscribeUrl }) =>
    [
      title,
      intro,
      ...lines,
      ...(ctaLabel && ctaUrl ? [`${ctaLabel}\u00a0: ${ctaUrl}`] : []),
      ...(unsubscribeUrl ? [`${UNSUBSCRIBE_INTRO} Se désabonner\u00a0: ${unsubscribeUrl}`] : []),
    ].join("\n\n"),
});
