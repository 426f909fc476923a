import { ShieldCheck } from "lucide-react";
import { Form, useNavigation } from "react-router";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/input";
import { UNDERTAKING_TEXT } from "~/features/connections/connection-rules";
import type { IntentResult } from "./file-stages";

/** The confidentiality undertaking, signed here as on the matching panel: the client's identity follows. */
export function FileUndertaking({ result }: { result?: IntentResult }) {
  const navigation = useNavigation();
  const signing = navigation.state !== "idle" && navigation.formData?.get("intent") === "undertaking";
  return (
    <Form method="post" className="grid gap-2 rounded-md border bg-background p-3 text-sm" data-testid="file-undertaking">
      <p className="flex items-center gap-2 font-semibold">
        <ShieldCheck className="h-4 w-4" aria-hidden="true" />
        Engagement de confidentialité à signer
      </p>
      <p className="text-muted-foreground">L’identité du client de votre confrère s’affiche ici dès que vous avez signé cet engagement.</p>
      <p id="file-undertaking-text">{UNDERTAKING_TEXT}</p>
      <label className="flex items-start gap-2">
        <Checkbox id="file-undertaking-accept" name="accept" required aria-describedby="file-undertaking-text" className="mt-0.5" />
        <span>J’accepte cet engagement de confidentialité</span>
      </label>
      {result?.intent === "undertaking" ? (
        <Alert variant="destructive">
          <AlertDescription>{result.error}</AlertDescription>
        </Alert>
      ) : null}
      <div>
        <Button type="submit" name="intent" value="undertaking" size="sm" disabled={signing}>
          {signing ? "Signature…" : "Signer et voir l’identité du client"}
        </Button>
      </div>
    </Form>
  );
}
