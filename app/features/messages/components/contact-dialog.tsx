import { lazy, Suspense, useState } from "react";
import { Form } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { Input, Label, Textarea } from "~/components/ui/input";
import { useHydrated } from "~/lib/use-hydrated";

export type ContactActionData = { ok: true } | { ok: false; error: string };

export type ContactDialogProps = {
  professionalName: string;
  defaults?: Partial<Record<"fullName" | "email" | "subject" | "message", string>>;
  /** The action's answer to a plain form post (no JavaScript). */
  result?: ContactActionData;
};

// The dialog (Radix Dialog and the form, ≈ 10 KB gzip) is not part of the public profile's first
// load: it is fetched when the visitor points at or focuses the button, and opened on the click.
const loadPanel = () => import("./contact-dialog-panel");
const ContactDialogPanel = lazy(loadPanel);
const prefetch = () => {
  loadPanel().catch(() => {
    // Retried by the click.
  });
};

/** The 'Contacter ce professionnel' button and, once clicked, its dialog (contact-dialog-panel.tsx). */
export function ContactDialog(props: ContactDialogProps) {
  const hydrated = useHydrated();
  const [requested, setRequested] = useState(false);
  // Before JavaScript runs (or without it), the same form as a plain POST in a <details>.
  if (!hydrated) return <PlainContactForm {...props} />;
  const button = (
    <Button size="lg" onClick={() => setRequested(true)} onPointerEnter={prefetch} onFocus={prefetch}>
      Contacter ce professionnel
    </Button>
  );
  if (!requested) return button;
  return (
    <Suspense fallback={button}>
      <ContactDialogPanel {...props} />
    </Suspense>
  );
}

/** 'Contacter ce professionnel' as a plain HTML form: works without JavaScript. */
function PlainContactForm({ professionalName, defaults, result }: ContactDialogProps) {
  return (
    <details className="group w-full max-w-xl" open={result ? true : undefined}>
      <summary className={`${buttonVariants({ size: "lg" })} cursor-pointer list-none [&::-webkit-details-marker]:hidden`}>
        Contacter ce professionnel
      </summary>
      <Form method="post" className="mt-4 grid gap-4 rounded-lg border p-4 text-left">
        <p className="text-sm text-muted-foreground">
          Votre message sera transmis directement à {professionalName}, qui vous répondra à l’adresse indiquée.
        </p>
        {result ? (
          // The look of ui/alert's success and destructive variants, without its module: the public
          // profile's first load stays within its JavaScript budget (`npm run lighthouse`).
          <p
            role={result.ok ? "status" : "alert"}
            className={`rounded-lg border p-4 text-sm ${result.ok ? "border-success/40 bg-green-50 text-success" : "border-destructive/50 bg-red-50 text-destructive"}`}
          >
            {result.ok ? "Message envoyé avec succès !" : result.error}
          </p>
        ) : null}
        <input type="hidden" name="intent" value="contact" />
        <div className="hidden" aria-hidden="true">
          <label htmlFor="plain-contact-website">Site web</label>
          <input id="plain-contact-website" name="website" tabIndex={-1} autoComplete="off" />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="plain-contact-fullName">Nom complet</Label>
          <Input id="plain-contact-fullName" name="fullName" required maxLength={120} defaultValue={defaults?.fullName} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="plain-contact-email">Email</Label>
          <Input id="plain-contact-email" name="email" type="email" required maxLength={254} defaultValue={defaults?.email} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="plain-contact-subject">Objet</Label>
          <Input id="plain-contact-subject" name="subject" required maxLength={200} defaultValue={defaults?.subject} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="plain-contact-message">Message</Label>
          <Textarea id="plain-contact-message" name="message" required rows={5} maxLength={5000} defaultValue={defaults?.message} />
        </div>
        <div>
          <Button type="submit">Envoyer le message</Button>
        </div>
      </Form>
    </details>
  );
}
