// E-mails are React components rendered to static HTML, with a plain-text version built from
// the same props. Features call sendEmail() (or a typed helper below), which renders and
// enqueues in one step; the dispatcher delivers later.
import { renderToStaticMarkup } from "react-dom/server";
import type { Db } from "~/db/client.server";
import { getEnv } from "~/lib/env.server";
import { enqueueMail } from "./outbox.server";
import { EmailLayout, type EmailContext, type EmailTemplate } from "./templates/layout";
import { notification, type NotificationProps } from "./templates/notification";
import { resetPassword } from "./templates/reset-password";
import { verifyEmail } from "./templates/verify-email";

export type { EmailContext, EmailTemplate } from "./templates/layout";
export { notification, resetPassword, verifyEmail, type NotificationProps };

export type RenderedEmail = { subject: string; html: string; text: string };

export function emailContext(): EmailContext {
  const env = getEnv();
  return { appName: env.APP_NAME, appUrl: env.APP_URL };
}

export function renderEmail<P>(template: EmailTemplate<P>, props: P, ctx: EmailContext = emailContext()): RenderedEmail {
  const subject = template.subject(props, ctx);
  const reason = template.reason(props, ctx);
  const html =
    "<!DOCTYPE html>" +
    renderToStaticMarkup(
      <EmailLayout ctx={ctx} subject={subject} preheader={template.preheader?.(props, ctx)} reason={reason}>
        {template.body(props, ctx)}
      </EmailLayout>,
    );
  // "-- " on its own line is the conventional signature separator that clients fold away.
  const text = `${template.text(props, ctx).trim()}\n\n-- \n${reason}\n${ctx.appName} · ${ctx.appUrl}\n`;
  return { subject, html, text };
}

export type SendEmailOptions = {
  to: string;
  replyTo?: string;
  /** Same key twice → enqueued once (see enqueueMail). */
  dedupeKey?: string;
  /** Overrides the template's kind (e.g. "match-accepted" for a notification). */
  kind?: string;
  /** Enqueue inside the caller's transaction. */
  tx?: Db;
};

/** Renders a template and puts it in the outbox. Returns the outbox id, or null on a dedupe hit. */
export async function sendEmail<P>(template: EmailTemplate<P>, props: P, options: SendEmailOptions): Promise<number | null> {
  const { subject, html, text } = renderEmail(template, props);
  return enqueueMail(
    {
      to: options.to,
      replyTo: options.replyTo,
      subject,
      html,
      text,
      kind: options.kind ?? template.kind,
      dedupeKey: options.dedupeKey,
    },
    options.tx,
  );
}

export type SendHelperOptions = Omit<SendEmailOptions, "to" | "kind">;

/** E-mail confirmation link after sign-up. */
export function sendVerificationEmail(to: string, url: string, options: SendHelperOptions = {}) {
  return sendEmail(verifyEmail, { url }, { ...options, to });
}

/** Password reset link. */
export function sendResetPasswordEmail(to: string, url: string, options: SendHelperOptions = {}) {
  return sendEmail(resetPassword, { url }, { ...options, to });
}

/** Generic notification (see templates/notification.tsx). */
export function sendNotificationEmail(
  to: string,
  props: NotificationProps,
  options: SendHelperOptions & { kind?: string } = {},
) {
  return sendEmail(notification, props, { ...options, to });
}
