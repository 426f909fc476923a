// Building blocks shared by every e-mail: one layout (product name in the header, a footer
// saying why the reader gets the message) and a link button. Mail clients ignore <style>
// blocks and external CSS, so everything is inline styles on a table layout.
import type { CSSProperties, ReactNode } from "react";

/** What every template knows about the product. */
export type EmailContext = { appName: string; appUrl: string };

export type EmailTemplate<P> = {
  /** Default `kind` of the outbox row (logs, local mailbox). */
  kind: string;
  subject: (props: P, ctx: EmailContext) => string;
  /** Short summary that mail clients show next to the subject. */
  preheader?: (props: P, ctx: EmailContext) => string;
  /** The footer line, "Vous recevez cet e-mail car …". */
  reason: (props: P, ctx: EmailContext) => string;
  /** HTML body (inside the layout). */
  body: (props: P, ctx: EmailContext) => ReactNode;
  /** Plain-text body built from the same props (the layout adds the footer). */
  text: (props: P, ctx: EmailContext) => string;
};

/** Identity helper that keeps the props type of a template. */
export function defineEmailTemplate<P>(template: EmailTemplate<P>): EmailTemplate<P> {
  return template;
}

/** Links in e-mails must be absolute http(s) URLs: anything else is a programming error. */
export function safeUrl(url: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (!parsed || (parsed.protocol !== "https:" && parsed.protocol !== "http:")) {
    throw new Error(`E-mail links must be absolute http(s) URLs, got ${JSON.stringify(url.slice(0, 100))}`);
  }
  return url;
}

const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const BRAND = "#1e3a5f";
const TEXT = "#1f2937";
const MUTED = "#6b7280";

export const emailStyles = {
  heading: { margin: "0 0 16px", fontSize: "22px", lineHeight: "30px", fontWeight: 700, color: TEXT },
  paragraph: { margin: "0 0 16px", fontSize: "16px", lineHeight: "24px", color: TEXT, whiteSpace: "pre-line" },
  muted: { margin: "0 0 16px", fontSize: "14px", lineHeight: "20px", color: MUTED },
  link: { color: BRAND, wordBreak: "break-all" },
} satisfies Record<string, CSSProperties>;

export function EmailHeading({ children }: { children: ReactNode }) {
  return <h1 style={emailStyles.heading}>{children}</h1>;
}

export function EmailParagraph({ children }: { children: ReactNode }) {
  return <p style={emailStyles.paragraph}>{children}</p>;
}

export function EmailNote({ children }: { children: ReactNode }) {
  return <p style={emailStyles.muted}>{children}</p>;
}

/** A call-to-action link that looks like a button in every client (table cell background). */
export function EmailButton({ href, children }: { href: string; children: ReactNode }) {
  const url = safeUrl(href);
  return (
    <table role="presentation" cellPadding={0} cellSpacing={0} style={{ margin: "8px 0 24px", borderCollapse: "separate" }}>
      <tbody>
        <tr>
          <td style={{ borderRadius: "6px", backgroundColor: BRAND }}>
            <a
              href={url}
              style={{
                display: "inline-block",
                padding: "12px 24px",
                fontFamily: FONT,
                fontSize: "16px",
                fontWeight: 600,
                lineHeight: "20px",
                color: "#ffffff",
                textDecoration: "none",
                borderRadius: "6px",
              }}
            >
              {children}
            </a>
          </td>
        </tr>
      </tbody>
    </table>
  );
}

/** The raw link under a button, for clients that block buttons or copy-paste readers. */
export function EmailFallbackLink({ href }: { href: string }) {
  const url = safeUrl(href);
  return (
    <p style={emailStyles.muted}>
      Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur&nbsp;:<br />
      <a href={url} style={emailStyles.link}>
        {url}
      </a>
    </p>
  );
}

export function EmailLayout({
  ctx,
  subject,
  preheader,
  reason,
  children,
}: {
  ctx: EmailContext;
  subject: string;
  preheader?: string;
  reason: string;
  children: ReactNode;
}) {
  return (
    <html lang="fr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <title>{subject}</title>
      </head>
      <body style={{ margin: 0, padding: 0, backgroundColor: "#f3f4f6", fontFamily: FONT, color: TEXT }}>
        {preheader ? (
          <div style={{ display: "none", maxHeight: 0, overflow: "hidden", opacity: 0, fontSize: "1px", lineHeight: "1px" }}>
            {preheader}
          </div>
        ) : null}
        <table role="presentation" width="100%" cellPadding={0} cellSpacing={0} style={{ backgroundColor: "#f3f4f6" }}>
          <tbody>
            <tr>
              <td align="center" style={{ padding: "24px 12px" }}>
                <table
                  role="presentation"
                  width="100%"
                  cellPadding={0}
                  cellSpacing={0}
                  style={{ maxWidth: "600px", backgroundColor: "#ffffff", border: "1px solid #e5e7eb", borderRadius: "8px" }}
                >
                  <tbody>
                    <tr>
                      <td
                        style={{
                          padding: "20px 32px",
                          borderBottom: `3px solid ${BRAND}`,
                          fontFamily: FONT,
                          fontSize: "18px",
                          fontWeight: 700,
                          color: BRAND,
                        }}
                      >
                        {ctx.appName}
                      </td>
                    </tr>
                    <tr>
                      <td style={{ padding: "32px", fontFamily: FONT }}>{children}</td>
                    </tr>
                  </tbody>
                </table>
                <table role="presentation" width="100%" cellPadding={0} cellSpacing={0} style={{ maxWidth: "600px" }}>
                  <tbody>
                    <tr>
                      <td style={{ padding: "16px 32px", fontFamily: FONT, fontSize: "12px", lineHeight: "18px", color: MUTED }}>
                        <p style={{ margin: "0 0 4px" }}>{reason}</p>
                        <p style={{ margin: 0 }}>
                          {ctx.appName} ·{" "}
                          <a href={safeUrl(ctx.appUrl)} style={{ color: MUTED }}>
                            {ctx.appUrl.replace(/^https?:\/\//, "")}
                          </a>
                        </p>
                      </td>
                    </tr>
                  </tbody>
                </table>
              </td>
            </tr>
          </tbody>
        </table>
      </body>
    </html>
  );
}
