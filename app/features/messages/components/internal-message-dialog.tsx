import { Send } from "lucide-react";
import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { toast } from "~/lib/toast";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "~/components/ui/dialog";
import { Input, Label, Textarea } from "~/components/ui/input";
import { CONTACT_DIALOG_REQUIRED, MESSAGING_ERRORS } from "../messages.schema";
import { PremiumUpsellCard } from "./premium-upsell";

export type MessageActionData = { ok: true } | { ok: false; error: string };

const EMPTY = { subject: "", message: "" };

/**
 * 'Contacter' on a peer card: a dialog with subject and message, posted to the current route's
 * action (intent 'contact'). Members without internal messaging get the Premium upsell instead.
 */
export function InternalMessageDialog({ recipient, canMessage }: { recipient: { id: string; name: string }; canMessage: boolean }) {
  const fetcher = useFetcher<MessageActionData>({ key: `contact-${recipient.id}` });
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState(EMPTY);
  const [clientError, setClientError] = useState<string | null>(null);
  const sending = fetcher.state !== "idle";
  const complete = values.subject.trim() !== "" && values.message.trim() !== "";

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.ok) {
      toast.success(MESSAGING_ERRORS.sent);
      setValues(EMPTY);
      setOpen(false);
    } else {
      toast.error(fetcher.data.error);
    }
  }, [fetcher.state, fetcher.data]);

  const serverError = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data.error : null;
  const error = clientError ?? serverError;
  const idBase = `message-${recipient.id}`;
  const field = (name: keyof typeof EMPTY) => ({
    id: `${idBase}-${name}`,
    name,
    value: values[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      setClientError(null);
      setValues((v) => ({ ...v, [name]: e.target.value }));
    },
  });

  return (
    <Dialog open={open} onOpenChange={(o) => !sending && setOpen(o)}>
      <DialogTrigger asChild>
        <Button className="w-full" variant="outline" aria-label={`Contacter ${recipient.name}`}>
          <Send aria-hidden="true" />
          Contacter
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Contacter {recipient.name}</DialogTitle>
          <DialogDescription>
            {canMessage
              ? "Votre message arrivera dans sa messagerie interne\u00a0; il en sera averti par e-mail."
              : "La messagerie interne entre confrères est une fonctionnalité Premium."}
          </DialogDescription>
        </DialogHeader>
        {canMessage ? (
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
            <input type="hidden" name="recipientId" value={recipient.id} />
            {error ? (
              <Alert variant="destructive">
                <AlertDescription>{error}</AlertDescription>
              </Alert>
            ) : null}
            <div className="grid gap-2">
              <Label htmlFor={`${idBase}-subject`}>Objet</Label>
              <Input {...field("subject")} maxLength={200} required />
            </div>
            <div className="grid gap-2">
              <Label htmlFor={`${idBase}-message`}>Message</Label>
              <Textarea {...field("message")} rows={6} maxLength={5000} required />
            </div>
            <DialogFooter>
              <Button type="submit" disabled={!complete || sending}>
                {sending ? "Envoi en cours..." : "Envoyer"}
              </Button>
            </DialogFooter>
          </fetcher.Form>
        ) : (
          <PremiumUpsellCard>
            <p>Échangez directement avec vos confrères du réseau, lisez et répondez à tous vos messages.</p>
          </PremiumUpsellCard>
        )}
      </DialogContent>
    </Dialog>
  );
}
