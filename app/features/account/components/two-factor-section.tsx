import { getFormProps, getInputProps } from "@conform-to/react";
import { KeyRound, ShieldCheck, ShieldOff } from "lucide-react";
import { Form } from "react-router";
import { TextField } from "~/components/form-field";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { disableTwoFactorSchema, enableTwoFactorSchema, regenerateBackupCodesSchema, verifyTwoFactorSchema } from "../account.schema";
import { plural } from "~/lib/format";
import { FormErrors, IntentField, SettingsSection, type SettingsActionData, SubmitButton, useSettingsForm } from "./settings-form";

export type TwoFactorView =
  | { status: "off" }
  | { status: "pending"; secret: string; uri: string; qrSvg: string }
  | { status: "on"; backupCodesLeft: number };

function PasswordForm({
  intent,
  schema,
  actionData,
  label,
  busyLabel,
  variant,
}: {
  intent: string;
  schema: typeof enableTwoFactorSchema | typeof disableTwoFactorSchema | typeof regenerateBackupCodesSchema;
  actionData?: SettingsActionData;
  label: string;
  busyLabel: string;
  variant?: "default" | "outline" | "destructive";
}) {
  const [form, fields] = useSettingsForm(intent, schema, actionData);
  return (
    <Form method="post" {...getFormProps(form)} className="grid max-w-md gap-4">
      <IntentField intent={intent} />
      <FormErrors errors={form.errors} id={form.errorId} />
      <TextField
        label="Mot de passe"
        hint="Par sécurité, confirmez votre mot de passe."
        inputProps={{ ...getInputProps(fields.password, { type: "password" }), key: fields.password.key, autoComplete: "current-password" }}
        errors={fields.password.errors}
      />
      <div>
        <SubmitButton intent={intent} label={label} busyLabel={busyLabel} variant={variant} />
      </div>
    </Form>
  );
}

function BackupCodes({ codes }: { codes: string[] }) {
  return (
    <Alert variant="info" className="grid gap-3">
      <AlertTitle>Vos codes de secours</AlertTitle>
      <AlertDescription className="grid gap-3">
        <p>
          Conservez ces {codes.length} codes en lieu sûr (gestionnaire de mots de passe, document imprimé)&nbsp;: ils ne seront plus
          affichés. Chacun permet une seule connexion si vous n’avez plus accès à votre application d’authentification.
        </p>
        <ul className="grid grid-cols-1 gap-2 font-mono text-base sm:grid-cols-2" aria-label="Codes de secours">
          {codes.map((code) => (
            <li key={code} className="rounded border border-blue-200 bg-background px-3 py-1 text-foreground" translate="no">
              {code}
            </li>
          ))}
        </ul>
      </AlertDescription>
    </Alert>
  );
}

function VerifyForm({ actionData }: { actionData?: SettingsActionData }) {
  const intent = "verify-2fa";
  const [form, fields] = useSettingsForm(intent, verifyTwoFactorSchema, actionData);
  return (
    <Form method="post" {...getFormProps(form)} className="grid max-w-xs gap-4">
      <IntentField intent={intent} />
      <FormErrors errors={form.errors} id={form.errorId} />
      <TextField
        label="Code à 6 chiffres"
        inputProps={{
          ...getInputProps(fields.code, { type: "text" }),
          key: fields.code.key,
          autoComplete: "one-time-code",
          inputMode: "numeric",
          spellCheck: false,
        }}
        errors={fields.code.errors}
      />
      <div>
        <SubmitButton intent={intent} label="Activer la double authentification" busyLabel="Vérification..." />
      </div>
    </Form>
  );
}

export function TwoFactorSection({
  state,
  actionData,
  backupCodes: shownCodes,
  adminRequired,
}: {
  state: TwoFactorView;
  actionData?: SettingsActionData;
  /** Backup codes to show once: after activation (the page's data) or regeneration (the action's). */
  backupCodes?: string[] | null;
  adminRequired: boolean;
}) {
  return (
    <SettingsSection
      id="securite"
      title="Double authentification"
      description="En plus de votre mot de passe, un code à 6 chiffres généré par une application de votre téléphone vous est demandé à chaque connexion."
    >
      {adminRequired ? (
        <Alert variant="destructive">
          <AlertTitle>Obligatoire pour les administrateurs</AlertTitle>
          <AlertDescription>
            Les administrateurs doivent activer la double authentification pour accéder à l’administration.
          </AlertDescription>
        </Alert>
      ) : null}
      {shownCodes?.length ? <BackupCodes codes={shownCodes} /> : null}

      {state.status === "off" ? (
        <div className="grid gap-4">
          <p className="flex items-center gap-2 text-sm">
            <ShieldOff className="h-5 w-5 text-muted-foreground" aria-hidden="true" />
            <span>
              Statut&nbsp;: <Badge variant="secondary">Désactivée</Badge>
            </span>
          </p>
          <p className="text-sm">
            Il vous faut une application d’authentification sur votre téléphone, par exemple Google Authenticator, Microsoft
            Authenticator, FreeOTP ou le gestionnaire de mots de passe que vous utilisez déjà.
          </p>
          <PasswordForm
            intent="enable-2fa"
            schema={enableTwoFactorSchema}
            actionData={actionData}
            label="Configurer la double authentification"
            busyLabel="Préparation..."
            variant="outline"
          />
        </div>
      ) : null}

      {state.status === "pending" ? (
        <div className="grid gap-5">
          <p className="flex items-center gap-2 text-sm">
            <KeyRound className="h-5 w-5 text-primary" aria-hidden="true" />
            <span>
              Statut&nbsp;: <Badge variant="warning">Configuration en cours</Badge>
            </span>
          </p>
          <ol className="grid list-decimal gap-4 pl-5 text-sm">
            <li>Ouvrez votre application d’authentification et choisissez d’ajouter un compte.</li>
            <li className="grid gap-2">
              <span>Scannez ce QR code avec l’application&nbsp;:</span>
              {/* Server-rendered SVG (qrcode): path data only, see totp-qr.server.ts. */}
              <div
                role="img"
                aria-label="QR code de configuration de la double authentification"
                className="w-44 rounded-md border bg-white p-1 [&>svg]:h-auto [&>svg]:w-full"
                data-testid="totp-qr"
                dangerouslySetInnerHTML={{ __html: state.qrSvg }}
              />
              <span>
                Sur ce téléphone, touchez ce lien pour l’ajouter directement&nbsp;:{" "}
                <a href={state.uri} className="font-medium text-primary underline underline-offset-2">
                  ajouter le compte à mon application
                </a>
                . Sinon, choisissez «&nbsp;saisir une clé&nbsp;» et recopiez la clé ci-dessous (type&nbsp;: basé sur le temps, 6 chiffres,
                30 secondes).
              </span>
              <span className="grid gap-1">
                <span className="font-medium">Clé de configuration</span>
                <code
                  className="w-fit max-w-full break-all rounded bg-muted px-3 py-2 font-mono text-base tracking-wider"
                  translate="no"
                  data-testid="totp-secret"
                >
                  {state.secret}
                </code>
              </span>
              <details className="text-xs text-muted-foreground">
                <summary className="cursor-pointer">Afficher le lien de configuration complet</summary>
                <code className="mt-1 block break-all" data-testid="totp-uri" translate="no">
                  {state.uri}
                </code>
              </details>
            </li>
            <li>Saisissez le code à 6 chiffres affiché par l’application pour confirmer l’activation.</li>
          </ol>
          <VerifyForm actionData={actionData} />
          <Form method="post">
            <IntentField intent="cancel-2fa" />
            <SubmitButton intent="cancel-2fa" label="Annuler la configuration" busyLabel="Annulation..." variant="ghost" size="sm" />
          </Form>
        </div>
      ) : null}

      {state.status === "on" ? (
        <div className="grid gap-6">
          <p className="flex flex-wrap items-center gap-2 text-sm">
            <ShieldCheck className="h-5 w-5 text-success" aria-hidden="true" />
            <span>
              Statut&nbsp;: <Badge variant="success">Activée</Badge>
            </span>
            <span className="text-muted-foreground">
              {state.backupCodesLeft} {plural(state.backupCodesLeft, "code de secours restant", "codes de secours restants")}
            </span>
          </p>
          <div className="grid gap-3">
            <h3 className="font-semibold">Nouveaux codes de secours</h3>
            <p className="text-sm text-muted-foreground">Les codes précédents cesseront de fonctionner.</p>
            <PasswordForm
              intent="regenerate-backup-codes"
              schema={regenerateBackupCodesSchema}
              actionData={actionData}
              label="Générer de nouveaux codes"
              busyLabel="Génération..."
              variant="outline"
            />
          </div>
          <div className="grid gap-3">
            <h3 className="font-semibold">Désactiver la double authentification</h3>
            <p className="text-sm text-muted-foreground">Seul votre mot de passe protégera alors l’accès à votre compte.</p>
            <PasswordForm
              intent="disable-2fa"
              schema={disableTwoFactorSchema}
              actionData={actionData}
              label="Désactiver"
              busyLabel="Désactivation..."
              variant="destructive"
            />
          </div>
        </div>
      ) : null}
    </SettingsSection>
  );
}
