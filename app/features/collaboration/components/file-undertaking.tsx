import { Form, useNavigation } from "react-router";
import { UndertakingConsent } from "~/features/connections/components/undertaking-consent";
import type { IntentResult } from "./file-stages";

/** The confidentiality undertaking, signed here as on the matching panel: the client's identity follows. */
export function FileUndertaking({ result, primary = true }: { result?: IntentResult; primary?: boolean }) {
  const navigation = useNavigation();
  const signing = navigation.state !== "idle" && navigation.formData?.get("intent") === "undertaking";
  return (
    <Form method="post" className="grid gap-2 rounded-md border bg-background p-3 text-sm" data-testid="file-undertaking">
      <UndertakingConsent
        id="file-undertaking-accept"
        title="Engagement de confidentialité à signer"
        note="L’identité du client de votre confrère s’affiche ici dès que vous avez signé cet engagement."
        signing={signing}
        primary={primary}
        error={result?.intent === "undertaking" ? result.error : null}
        intent="undertaking"
      />
    </Form>
  );
}
