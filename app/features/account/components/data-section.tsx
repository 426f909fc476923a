import { getFormProps, getInputProps } from "@conform-to/react";
import { Download } from "lucide-react";
import { Form } from "react-router";
import { TextField } from "~/components/form-field";
import { Button } from "~/components/ui/button";
import { Checkbox, FieldError } from "~/components/ui/input";
import { deleteAccountSchema } from "../account.schema";
import { FormErrors, IntentField, SettingsSection, type SettingsActionData, SubmitButton, useSettingsForm } from "./settings-form";

const INTENT = "delete-account";

function DeleteAccountForm({ actionData }: { actionData?: SettingsActionData }) {
  const [form, fields] = useSettingsForm(INTENT, deleteAccountSchema, actionData);
  return (
    <Form method="post" {...getFormProps(form)} className="grid max-w-md gap-4">
      <IntentField intent={INTENT} />
      <FormErrors errors={form.errors} id={form.errorId} />
      <TextField
        label="Mot de passe"
        hint="Confirmez la suppression avec votre mot de passe."
        inputProps={{ ...getInputProps(fields.password, { type: "password" }), key: fields.password.key, autoComplete: "current-password" }}
        errors={fields.password.errors}
      />
      <div className="grid gap-2">
        <label className="flex items-start gap-3 text-sm">
          <Checkbox
            name={fields.confirm.name}
            id={fields.confirm.id}
            key={fields.confirm.key}
            className="mt-0.5"
            aria-invalid={fields.confirm.errors ? true : undefined}
            aria-describedby={fields.confirm.errors ? `${fields.confirm.id}-error` : undefined}
          />
          <span>Je comprends que la suppression de mon compte est définitive.</span>
        </label>
        <FieldError id={`${fields.confirm.id}-error`} errors={fields.confirm.errors} />
      </div>
      <div>
        <SubmitButton intent={INTENT} label="Supprimer définitivement mon compte" busyLabel="Suppression..." variant="destructive" />
      </div>
    </Form>
  );
}

export function DataSection({ hasProfile, actionData }: { hasProfile: boolean; actionData?: SettingsActionData }) {
  return (
    <SettingsSection
      id="donnees"
      title="Mes données"
      description="Vos droits d’accès, de portabilité et d’effacement (RGPD), exercés directement depuis votre compte."
    >
      <div className="grid gap-3">
        <h3 className="font-semibold">Exporter mes données</h3>
        <p className="text-sm">
          Un fichier JSON avec tout ce qui vous concerne&nbsp;: votre compte et vos sessions
          {hasProfile
            ? ", votre profil, vos transactions certifiées, vos parrainages, les messages reçus et envoyés, vos mandats (avec l’identité de vos clients), vos demandes de mise en relation et vos paiements"
            : ""}
          .
        </p>
        <div>
          <Button asChild variant="outline">
            <a href="/parametres/export" download>
              <Download aria-hidden="true" />
              Télécharger mes données (JSON)
            </a>
          </Button>
        </div>
      </div>
      <div className="grid gap-3 rounded-md border border-destructive/40 p-4">
        <h3 className="font-semibold text-destructive">Supprimer mon compte</h3>
        <div className="grid gap-2 text-sm">
          <p>La suppression est immédiate et définitive&nbsp;:</p>
          <ul className="list-disc space-y-1 pl-5">
            <li>
              votre compte, votre profil, vos références, vos mandats et les demandes de mise en relation qui les concernent,
              et vos messages reçus sont effacés&nbsp;;
            </li>
            <li>
              seules les références comptables de vos paiements (montant, date, référence du prestataire) sont conservées,
              sans vos coordonnées, pour nos obligations légales&nbsp;;
            </li>
            <li>
              les messages que vous avez envoyés restent lisibles par leurs destinataires, sans votre nom ni votre adresse
              e-mail («&nbsp;Membre supprimé&nbsp;»)&nbsp;;
            </li>
            <li>vous êtes déconnecté de tous vos appareils.</li>
          </ul>
          <p className="text-muted-foreground">Pensez à exporter vos données avant de supprimer votre compte.</p>
        </div>
        <DeleteAccountForm actionData={actionData} />
      </div>
    </SettingsSection>
  );
}
