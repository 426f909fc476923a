// The confidentiality undertaking as a member signs it, the same on the matching panel and in a
// collaboration file: its text, the consent box and the button (the caller's form posts it).
import { ShieldCheck } from "lucide-react";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/input";
import { UNDERTAKING_TEXT } from "../connection-rules";

export function UndertakingConsent({
  id,
  title,
  note,
  signing,
  primary,
  error,
  intent,
}: {
  /** The consent box's id; its text is `${id}-text`. */
  id: string;
  title: string;
  note?: string;
  signing: boolean;
  /** The view's one primary action, or a secondary one (docs/design-system.md). */
  primary: boolean;
  error?: string | null;
  /** The submit button's intent, when the form holds several. */
  intent?: string;
}) {
  return (
    <>
      <p className="flex items-center gap-2 font-semibold">
        <ShieldCheck className="h-4 w-4" aria-hidden="true" />
        {title}
      </p>
      {note ? <p className="text-muted-foreground">{note}</p> : null}
      <p id={`${id}-text`}>{UNDERTAKING_TEXT}</p>
      <label className="flex items-start gap-2">
        <Checkbox id={id} name="accept" required aria-describedby={`${id}-text`} className="mt-0.5" />
        <span>J’accepte cet engagement de confidentialité</span>
      </label>
      {error ? (
        <Alert variant="destructive">
          <AlertDescription>{error}</AlertDescription>
        </Alert>
      ) : null}
      <div>
        <Button
          type="submit"
          size="sm"
          variant={primary ? "default" : "outline"}
          disabled={signing}
          {...(intent ? { name: "intent", value: intent } : {})}
        >
          {signing ? "Signature…" : "Signer et voir l’identité du client"}
        </Button>
      </div>
    </>
  );
}
