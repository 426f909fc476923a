import { getFormProps } from "@conform-to/react";
import { Form } from "react-router";
import { NativeSelect } from "~/components/ui/input";
import { EMAIL_FREQUENCIES, EMAIL_FREQUENCY_LABELS, type EmailFrequency } from "~/features/notifications/event-rules";
import { NOTIFICATION_LABELS, NOTIFICATION_TYPES, type NotificationType, notificationPreferencesSchema } from "../account.schema";
import { FormErrors, IntentField, SettingsSection, type SettingsActionData, SubmitButton, useSettingsForm } from "./settings-form";

const INTENT = "notifications";

export function NotificationsSection({
  preferences,
  actionData,
}: {
  preferences: Record<NotificationType, EmailFrequency> | null;
  actionData?: SettingsActionData;
}) {
  const [form] = useSettingsForm(INTENT, notificationPreferencesSchema, actionData);
  return (
    <SettingsSection
      id="notifications"
      title="Notifications par e-mail"
      description="Pour chaque sorte d’e-mail, choisissez de le recevoir immédiatement, dans un résumé quotidien ou hebdomadaire, ou jamais. Chaque e-mail contient aussi un lien de désabonnement."
    >
      {preferences ? (
        <Form method="post" {...getFormProps(form)} className="grid gap-4">
          <IntentField intent={INTENT} />
          <FormErrors errors={form.errors} id={form.errorId} />
          <fieldset className="grid gap-3">
            <legend className="sr-only">E-mails de notification</legend>
            {NOTIFICATION_TYPES.map((type) => (
              <div key={type} className="grid gap-2 rounded-md border p-3 sm:grid-cols-[1fr_auto] sm:items-center">
                <div className="grid gap-1">
                  <label htmlFor={`notification-${type}`} className="text-sm font-medium">
                    {NOTIFICATION_LABELS[type].label}
                  </label>
                  <p id={`notification-${type}-hint`} className="text-sm text-muted-foreground">
                    {NOTIFICATION_LABELS[type].hint}
                  </p>
                </div>
                <NativeSelect id={`notification-${type}`} name={type} defaultValue={preferences[type]} aria-describedby={`notification-${type}-hint`}>
                  {EMAIL_FREQUENCIES.map((f) => (
                    <option key={f} value={f}>
                      {EMAIL_FREQUENCY_LABELS[f]}
                    </option>
                  ))}
                </NativeSelect>
              </div>
            ))}
          </fieldset>
          <p className="text-xs text-muted-foreground">
            Les e-mails liés à la sécurité de votre compte (mot de passe, double authentification) sont toujours envoyés.
          </p>
          <div>
            <SubmitButton intent={INTENT} label="Enregistrer mes préférences" busyLabel="Enregistrement..." />
          </div>
        </Form>
      ) : (
        <p className="text-sm text-muted-foreground">
          Cette section sera disponible une fois votre profil professionnel créé.
        </p>
      )}
    </SettingsSection>
  );
}
