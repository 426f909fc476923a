// /parametres: the member's consent to show their ratings (average and count) on the public
// profile. Members of the network always see them.
import { getFormProps } from "@conform-to/react";
import { Form } from "react-router";
import { Checkbox } from "~/components/ui/input";
import { FormErrors, IntentField, SettingsSection, type SettingsActionData, SubmitButton, useSettingsForm } from "~/features/account/components/settings-form";
import { ratingsConsentSchema } from "../ratings.schema";

export const RATINGS_CONSENT_INTENT = "ratings-consent";

export function RatingsConsentSection({ consent, actionData }: { consent: boolean | null; actionData?: SettingsActionData }) {
  const [form] = useSettingsForm(RATINGS_CONSENT_INTENT, ratingsConsentSchema, actionData);
  return (
    <SettingsSection
      id="evaluations"
      title="Évaluations de vos confrères"
      description="La note moyenne et le nombre d’évaluations que vous avez reçues sont visibles des membres du réseau. Vous choisissez s’ils s’affichent aussi sur votre profil public."
    >
      {consent === null ? (
        <p className="text-sm text-muted-foreground">Cette section sera disponible une fois votre profil professionnel créé.</p>
      ) : (
        <Form method="post" {...getFormProps(form)} className="grid gap-4">
          <IntentField intent={RATINGS_CONSENT_INTENT} />
          <FormErrors errors={form.errors} id={form.errorId} />
          <div className="flex items-start gap-3 rounded-md border p-3">
            <Checkbox id="show-ratings-publicly" name="showRatingsPublicly" value="on" defaultChecked={consent} className="mt-0.5" />
            <label htmlFor="show-ratings-publicly" className="text-sm font-medium">
              Afficher ma note moyenne et le nombre d’évaluations sur mon profil public
            </label>
          </div>
          <div>
            <SubmitButton intent={RATINGS_CONSENT_INTENT} label="Enregistrer" busyLabel="Enregistrement..." />
          </div>
        </Form>
      )}
    </SettingsSection>
  );
}
