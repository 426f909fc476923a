import { getFormProps, getInputProps } from "@conform-to/react";
import { Form } from "react-router";
import { TextField } from "~/components/form-field";
import { changePasswordSchema } from "../account.schema";
import { FormErrors, IntentField, SettingsSection, type SettingsActionData, SubmitButton, useSettingsForm } from "./settings-form";

const INTENT = "change-password";

export function PasswordSection({ actionData }: { actionData?: SettingsActionData }) {
  const [form, fields] = useSettingsForm(INTENT, changePasswordSchema, actionData);
  return (
    <SettingsSection
      id="mot-de-passe"
      title="Mot de passe"
      description="Après la modification, vos autres sessions (autres navigateurs et appareils) sont fermées."
    >
      <Form method="post" {...getFormProps(form)} className="grid max-w-md gap-4">
        <IntentField intent={INTENT} />
        <FormErrors errors={form.errors} id={form.errorId} />
        <TextField
          label="Mot de passe actuel"
          inputProps={{ ...getInputProps(fields.currentPassword, { type: "password" }), key: fields.currentPassword.key, autoComplete: "current-password" }}
          errors={fields.currentPassword.errors}
        />
        <TextField
          label="Nouveau mot de passe"
          hint="6 caractères minimum."
          inputProps={{ ...getInputProps(fields.newPassword, { type: "password" }), key: fields.newPassword.key, autoComplete: "new-password" }}
          errors={fields.newPassword.errors}
        />
        <TextField
          label="Confirmer le nouveau mot de passe"
          inputProps={{ ...getInputProps(fields.confirmPassword, { type: "password" }), key: fields.confirmPassword.key, autoComplete: "new-password" }}
          errors={fields.confirmPassword.errors}
        />
        <div>
          {/* Outline: on the security page, enrolling the second factor may hold the view's primary action. */}
          <SubmitButton intent={INTENT} label="Modifier le mot de passe" busyLabel="Modification..." variant="outline" />
        </div>
      </Form>
    </SettingsSection>
  );
}
