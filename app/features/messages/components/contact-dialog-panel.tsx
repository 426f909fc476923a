import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { toast } from "~/lib/toast";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "~/components/ui/dialog";
import { Input, Label, Textarea } from "~/components/ui/input";
import { CONTACT_DIALOG_REQUIRED } from "../messages.texts";
import type { ContactActionData, ContactDialogProps } from "./contact-dialog";
import { ContactPrivacyNotice } from "~/features/contact/components/contact-privacy-notice";

const EMPTY = { fullName: "", email: "", subject: "", message: "" };

/**
 * 'Contacter ce professionnel': full name, e-mail, subject, message (spec §2 "Contact dialog").
 * Loaded by ContactDialog on the first click on its button, and mounted open.
 */
export default function ContactDialogPanel({ professionalName, defaults }: ContactDialogProps) {
  const fetcher = useFetcher<ContactActionData>();
  const [open, setOpen] = useState(true);
  const [values, setValues] = useState({ ...EMPTY, ...defaults });
  const [clientError, setClientError] = useState<string | null>(null);
  const sending = fetcher.state !== "idle";
  const complete = Object.values(values).every((v) => v.trim() !== "");

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.ok) {
      toast.success("Message envoyé avec succès !");
      setValues({ ...EMPTY, ...defaults });
      setOpen(false);
    } else {
      toast.error(fetcher.data.error);
    }
    // defaults are stable for the page's lifetime
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.state, fetcher.data]);

  const field = (name: keyof typeof EMPTY) => ({
    id: `contact-${name}`,
    name,
    value: values[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      setClientError(null);
      setValues((v) => ({ ...v, [name]: e.target.value }));
    },
  });

  const serverError = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data.error : null;
  const error = clientError ?? serverError;

  return (
    <Dialog open={open} onOpenChange={(o) => !sending && setOpen(o)}>
      <DialogTrigger asChild>
        <Button size="lg">Contacter ce professionnel</Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Contacter {professionalName}</DialogTitle>
          <DialogDescription>Votre message lui sera transmis directement. Il vous répondra à l’adresse indiquée.</DialogDescription>
        </DialogHeader>
        <fetcher.Form
          method="post"
          className="grid gap-4"
          onSubmit={(e) => {
            if (!complete) {
              e.preventDefault();
              setClientError(CONTACT_DIALOG_REQUIRED);
            }
          }}
        >
          <input type="hidden" name="intent" value="contact" />
          <div className="hidden" aria-hidden="true">
            <label htmlFor="contact-website">Site web</label>
            <input id="contact-website" name="website" tabIndex={-1} autoComplete="off" />
          </div>
          {error ? (
            <Alert variant="destructive">
              <AlertDescription>{error}</AlertDescription>
            </Alert>
          ) : null}
          <div className="grid gap-2">
            <Label htmlFor="contact-fullName">Nom complet</Label>
            <Input {...field("fullName")} autoComplete="name" maxLength={120} required />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="contact-email">Email</Label>
            <Input {...field("email")} type="email" autoComplete="email" maxLength={254} required />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="contact-subject">Objet</Label>
            <Input {...field("subject")} maxLength={200} required />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="contact-message">Message</Label>
            <Textarea {...field("message")} rows={6} maxLength={5000} required />
          </div>
          <ContactPrivacyNotice recipient="member" />
          <DialogFooter>
            <Button type="submit" disabled={!complete || sending}>
              {sending ? "Envoi en cours..." : "Envoyer"}
            </Button>
          </DialogFooter>
        </fetcher.Form>
      </DialogContent>
    </Dialog>
  );
}
