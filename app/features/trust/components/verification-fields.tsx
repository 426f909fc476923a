// The verification evidence fields (onboarding step): SIREN/SIRET, the registration that fits the
// member's profession, and the insurance certificate with its insurer, policy number and end date.
import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { TextField } from "~/components/form-field";
import { Input, Label } from "~/components/ui/input";
import { INSURANCE_MAX_MB } from "../verification.schema";
import { REGISTRATION_FIELDS, registrationKind } from "../verification-rules";

type Field = FieldMetadata<unknown>;

export const CERTIFICATE_ACCEPT = ".pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png";

export function InsuranceFields({ fields, currentFileName, required }: { fields: Record<string, Field>; currentFileName: string | null; required: boolean }) {
  return (
    <fieldset className="grid min-w-0 grid-cols-1 gap-4 rounded-md border p-4">
      <legend className="px-1 text-sm font-semibold">Assurance responsabilité civile professionnelle</legend>
      <div className="grid gap-2">
        <Label htmlFor="certificate">Attestation d’assurance (PDF, JPEG ou PNG, {INSURANCE_MAX_MB}&nbsp;Mo au maximum)</Label>
        <Input id="certificate" name="certificate" type="file" accept={CERTIFICATE_ACCEPT} required={required} aria-describedby="certificate-hint" />
        <p id="certificate-hint" className="text-xs text-muted-foreground">
          {currentFileName ? `Attestation déjà transmise\u00a0: ${currentFileName}. Joignez un fichier seulement pour la remplacer.` : "L’attestation en cours de validité délivrée par votre assureur."}
        </p>
      </div>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField label="Assureur" inputProps={{ ...getInputProps(fields.insurer, { type: "text" }), key: fields.insurer.key }} errors={fields.insurer.errors} />
        <TextField label="Numéro de contrat" inputProps={{ ...getInputProps(fields.policyNumber, { type: "text" }), key: fields.policyNumber.key }} errors={fields.policyNumber.errors} />
      </div>
      <TextField label="Fin de validité de l’attestation" inputProps={{ ...getInputProps(fields.insuranceEndsOn, { type: "date" }), key: fields.insuranceEndsOn.key }} errors={fields.insuranceEndsOn.errors} />
    </fieldset>
  );
}

export function VerificationFields({
  fields,
  profession,
  currentFileName,
}: {
  fields: Record<string, Field>;
  profession: string;
  currentFileName: string | null;
}) {
  const kind = registrationKind(profession);
  const registration = REGISTRATION_FIELDS[kind];
  return (
    <>
      <TextField
        label="SIREN ou SIRET de votre structure"
        hint="9 chiffres (SIREN) ou 14 chiffres (SIRET), avec ou sans espaces"
        inputProps={{ ...getInputProps(fields.siren, { type: "text" }), inputMode: "numeric", autoComplete: "off", key: fields.siren.key }}
        errors={fields.siren.errors}
      />
      <fieldset className="grid min-w-0 grid-cols-1 gap-4 rounded-md border p-4">
        <legend className="px-1 text-sm font-semibold">Inscription professionnelle</legend>
        <TextField label={registration.label} hint={registration.hint} inputProps={{ ...getInputProps(fields.registrationValue, { type: "text" }), key: fields.registrationValue.key }} errors={fields.registrationValue.errors} />
        {registration.yearLabel ? (
          <TextField
            label={registration.yearLabel}
            inputProps={{ ...getInputProps(fields.registrationYear, { type: "text" }), inputMode: "numeric", maxLength: 4, key: fields.registrationYear.key }}
            errors={fields.registrationYear.errors}
          />
        ) : null}
      </fieldset>
      <InsuranceFields fields={fields} currentFileName={currentFileName} required={!currentFileName} />
    </>
  );
}
