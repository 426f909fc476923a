import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { FormError } from "~/components/form-field";
import { parseWithZod } from "@conform-to/zod/v4";
import { Clock, Mail, MapPin } from "lucide-react";
import { useEffect } from "react";
import { data, Form, useNavigation } from "react-router";
import { toast } from "~/lib/toast";
import { PageContainer, PageTitle } from "~/components/page";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { FieldError, Input, Label, Textarea } from "~/components/ui/input";
import {
  CONTACT_HONEYPOT_FIELD,
  CONTACT_LIMITS,
  CONTACT_MESSAGES,
  contactPageSchema,
} from "~/features/contact/contact.schema";
import { createContactMessage } from "~/features/contact/contact.server";
import { isLegalPlaceholder, useLegalIdentity } from "~/lib/legal";
import { logger } from "~/lib/logger.server";
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from "~/lib/availability.server";
import { pageMeta } from "~/lib/meta";
import { consumeRateLimit, getClientIp, RATE_LIMITS } from "~/lib/rate-limit.server";
import type { Route } from "./+types/contact";
import { readForm } from "~/lib/form.server";
import { ContactPrivacyNotice } from "~/features/contact/components/contact-privacy-notice";
import { atEdge } from "~/lib/errors/http";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(
    matches,
    "Contact",
    "Une question sur le réseau, l’adhésion ou un partenariat\u00a0? Écrivez-nous\u00a0: notre équipe vous répond par e-mail sous 48 heures ouvrées.",
  );

type ActionResult = { result: SubmissionResult<string[]>; sent: boolean };

export const action = atEdge(async function action({ request, context }: Route.ActionArgs) {
  // Public form: no guard by design; abuse is limited per IP and by a honeypot.
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: contactPageSchema });
  const honeypot = formData.get(CONTACT_HONEYPOT_FIELD);
  if (typeof honeypot === "string" && honeypot.trim() !== "") {
    // A bot: it is told the message went out, and nothing is stored or sent.
    logger.info({ requestId: context.requestId }, "contact page honeypot filled: message dropped");
    return { result: submission.reply({ resetForm: true }), sent: true } satisfies ActionResult;
  }
  if (submission.status !== "success") {
    return data({ result: submission.reply(), sent: false } satisfies ActionResult, { status: 400 });
  }
  try {
    const limit = await consumeRateLimit(`contact-page:ip:${getClientIp(request)}`, RATE_LIMITS.contactIp);
    if (!limit.allowed) {
      return data(
        { result: submission.reply({ formErrors: [CONTACT_MESSAGES.tooMany] }), sent: false } satisfies ActionResult,
        { status: 429, headers: { "retry-after": String(limit.retryAfter) } },
      );
    }
    await createContactMessage(submission.value);
  } catch (error) {
    logger.error({ err: error, requestId: context.requestId }, "contact page message failed");
    // The form stays filled in with the French failure message; during a database outage the
    // status says so (503 + Retry-After), like every other page.
    const unavailable = isDatabaseUnavailable(error);
    return data({ result: submission.reply({ formErrors: [CONTACT_MESSAGES.failure] }), sent: false } satisfies ActionResult, {
      status: unavailable ? 503 : 500,
      headers: unavailable ? { "Retry-After": String(RETRY_AFTER_SECONDS) } : undefined,
    });
  }
  return { result: submission.reply({ resetForm: true }), sent: true } satisfies ActionResult;
});

/** An operator detail from LEGAL_IDENTITY; still-unset values are highlighted. */
function Placeholder({ value }: { value: string }) {
  return <mark className="rounded bg-amber-100 px-1 break-words text-amber-900">{value}</mark>;
}

function ContactEmail() {
  const LEGAL_IDENTITY = useLegalIdentity();
  const email = LEGAL_IDENTITY.contactEmail;
  if (isLegalPlaceholder(email)) return <Placeholder value={email} />;
  return (
    <a href={`mailto:${email}`} className="font-medium break-all text-primary underline underline-offset-2">
      {email}
    </a>
  );
}

function PostalAddress() {
  const LEGAL_IDENTITY = useLegalIdentity();
  const address = LEGAL_IDENTITY.headOffice;
  const company = LEGAL_IDENTITY.companyName;
  return (
    <address className="not-italic">
      {isLegalPlaceholder(company) ? <Placeholder value={company} /> : company}
      <br />
      {isLegalPlaceholder(address) ? <Placeholder value={address} /> : <span className="whitespace-pre-line">{address}</span>}
    </address>
  );
}

/** The visual asterisk; the input's `required` tells assistive technologies. */
function RequiredMark() {
  return (
    <span className="text-destructive" aria-hidden="true">
      {" "}
      *
    </span>
  );
}

const FIELD_NAMES = ["firstName", "lastName", "email", "company", "subject", "message"] as const;

function ContactForm({ lastResult, sent }: { lastResult?: SubmissionResult<string[]>; sent: boolean }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && (navigation.formAction ?? "").startsWith("/contact");
  const [form, fields] = useForm({
    id: "contact",
    lastResult,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: contactPageSchema }),
  });

  useEffect(() => {
    if (sent) toast.success(CONTACT_MESSAGES.success);
  }, [sent, lastResult]);

  // A missing required field is reported once, above the form (spec §5), not under every field.
  const missing = FIELD_NAMES.some((name) => fields[name].errors?.includes(CONTACT_MESSAGES.required));
  const fieldErrors = (name: (typeof FIELD_NAMES)[number]) =>
    fields[name].errors?.filter((e) => e !== CONTACT_MESSAGES.required);
  const describedBy = (name: (typeof FIELD_NAMES)[number]) => {
    const ids = [fieldErrors(name)?.length ? `${fields[name].id}-error` : null, missing && fields[name].errors?.length ? "contact-missing" : null];
    return ids.filter(Boolean).join(" ") || undefined;
  };
  const invalid = (name: (typeof FIELD_NAMES)[number]) => (fields[name].errors?.length ? true : undefined);
  const { key: _messageKey, ...textareaProps } = getTextareaProps(fields.message, { ariaAttributes: false });
  const showSuccess = sent && !busy && !missing && !form.errors?.length;

  // `key` is passed on its own: React refuses it inside a spread.
  const input = (name: Exclude<(typeof FIELD_NAMES)[number], "message">, type: "text" | "email" = "text") => {
    const { key: _key, ...props } = getInputProps(fields[name], { type, ariaAttributes: false });
    return {
      ...props,
      maxLength: CONTACT_LIMITS[name],
      "aria-invalid": invalid(name),
      "aria-describedby": describedBy(name),
      required: name !== "company",
    };
  };

  return (
    <Form method="post" {...getFormProps(form)} aria-labelledby="contact-form-title" className="grid gap-4">
      {showSuccess ? (
        <Alert variant="success">
          <AlertDescription>{CONTACT_MESSAGES.success}</AlertDescription>
        </Alert>
      ) : null}
      {missing ? (
        <Alert variant="destructive" id="contact-missing">
          <AlertDescription>{CONTACT_MESSAGES.required}</AlertDescription>
        </Alert>
      ) : null}
      <FormError form={form} />
      {/* Honeypot: hidden from people and assistive technologies; bots fill it. */}
      <div className="hidden" aria-hidden="true">
        <label htmlFor="contact-website">Site web</label>
        <input id="contact-website" name={CONTACT_HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid content-start gap-2">
          <Label htmlFor={fields.firstName.id}>
            Prénom
            <RequiredMark />
          </Label>
          <Input key={fields.firstName.key} {...input("firstName")} autoComplete="given-name" />
          <FieldError id={`${fields.firstName.id}-error`} errors={fieldErrors("firstName")} />
        </div>
        <div className="grid content-start gap-2">
          <Label htmlFor={fields.lastName.id}>
            Nom
            <RequiredMark />
          </Label>
          <Input key={fields.lastName.key} {...input("lastName")} autoComplete="family-name" />
          <FieldError id={`${fields.lastName.id}-error`} errors={fieldErrors("lastName")} />
        </div>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid content-start gap-2">
          <Label htmlFor={fields.email.id}>
            Email
            <RequiredMark />
          </Label>
          <Input key={fields.email.key} {...input("email", "email")} autoComplete="email" />
          <FieldError id={`${fields.email.id}-error`} errors={fieldErrors("email")} />
        </div>
        <div className="grid content-start gap-2">
          <Label htmlFor={fields.company.id}>Société (facultatif)</Label>
          <Input key={fields.company.key} {...input("company")} autoComplete="organization" />
          <FieldError id={`${fields.company.id}-error`} errors={fieldErrors("company")} />
        </div>
      </div>
      <div className="grid content-start gap-2">
        <Label htmlFor={fields.subject.id}>
          Sujet
          <RequiredMark />
        </Label>
        <Input key={fields.subject.key} {...input("subject")} />
        <FieldError id={`${fields.subject.id}-error`} errors={fieldErrors("subject")} />
      </div>
      <div className="grid content-start gap-2">
        <Label htmlFor={fields.message.id}>
          Message
          <RequiredMark />
        </Label>
        <Textarea
          key={fields.message.key}
          {...textareaProps}
          rows={7}
          maxLength={CONTACT_LIMITS.message}
          aria-invalid={invalid("message")}
          aria-describedby={describedBy("message")}
          required
        />
        <FieldError id={`${fields.message.id}-error`} errors={fieldErrors("message")} />
      </div>
      <p className="text-xs text-muted-foreground">Les champs marqués d’un astérisque (*) sont obligatoires.</p>
      <ContactPrivacyNotice recipient="team" />
      <div>
        <Button type="submit" size="lg" disabled={busy}>
          {busy ? "Envoi en cours..." : "Envoyer le message"}
        </Button>
      </div>
    </Form>
  );
}

export default function Contact({ actionData }: Route.ComponentProps) {
  return (
    <PageContainer className="max-w-5xl">
      <PageTitle>Contactez-nous</PageTitle>
      <p className="mt-4 max-w-3xl text-muted-foreground">
        Une question sur le réseau, l’adhésion, un partenariat ou votre profil&nbsp;? Écrivez-nous&nbsp;: un membre de notre équipe
        vous répondra personnellement.
      </p>

      <div className="mt-10 grid gap-8 lg:grid-cols-[2fr_1fr]">
        <Card>
          <CardHeader>
            <CardTitle id="contact-form-title">Envoyez-nous un message</CardTitle>
            <CardDescription>Nous vous répondons par e-mail sous 48 heures ouvrées.</CardDescription>
          </CardHeader>
          <CardContent>
            <ContactForm lastResult={actionData?.result} sent={actionData?.sent ?? false} />
          </CardContent>
        </Card>

        <aside aria-labelledby="contact-details-title" className="space-y-6">
          <Card>
            <CardHeader>
              <CardTitle id="contact-details-title">Nos coordonnées</CardTitle>
            </CardHeader>
            <CardContent className="space-y-5 text-sm text-foreground">
              <div className="flex gap-3">
                <MapPin className="mt-0.5 h-5 w-5 shrink-0 text-primary" aria-hidden="true" />
                <div>
                  <p className="font-medium">Adresse</p>
                  <PostalAddress />
                </div>
              </div>
              <div className="flex gap-3">
                <Mail className="mt-0.5 h-5 w-5 shrink-0 text-primary" aria-hidden="true" />
                <div className="min-w-0">
                  <p className="font-medium">Email</p>
                  <ContactEmail />
                </div>
              </div>
              <div className="flex gap-3">
                <Clock className="mt-0.5 h-5 w-5 shrink-0 text-primary" aria-hidden="true" />
                <div>
                  <p className="font-medium">Délai de réponse</p>
                  <p>Réponse sous 48 heures ouvrées.</p>
                </div>
              </div>
            </CardContent>
          </Card>
          <div className="rounded-lg bg-muted p-6 text-sm text-foreground">
            <p className="font-medium">Privilégiez l’e-mail</p>
            <p className="mt-2 text-muted-foreground">
              Pour un traitement plus rapide et un suivi écrit de votre demande, nous privilégions les échanges par e-mail
              plutôt que par téléphone.
            </p>
          </div>
        </aside>
      </div>
    </PageContainer>
  );
}
