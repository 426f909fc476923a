import { getFormProps, getInputProps, getSelectProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type * as React from "react";
import { Form, Link, useNavigation } from "react-router";
import { TextField } from "~/components/form-field";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { FieldError, Input, Label, NativeSelect, Textarea } from "~/components/ui/input";
import { DEPARTMENTS } from "~/db/reference";
import type { ProfileEditorData } from "../profile-editor.server";
import { PROFILE_LIMITS, PROFILE_MESSAGES, profileEditorSchema } from "../profile.schema";
import { SectorPicker } from "./sector-picker";

/** A titled panel of the profile editor; `id` is also its anchor. */
export function Panel({ id, title, description, children }: { id: string; title: string; description?: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} id={id} className="grid scroll-mt-4 gap-4 rounded-lg border bg-background p-4 shadow-sm sm:p-6">
      <div className="grid gap-1">
        <h3 id={`${id}-title`} className="text-lg font-semibold">
          {title}
        </h3>
        {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
      </div>
      {children}
    </section>
  );
}

function ReadOnlyField({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} value={value} readOnly className="bg-muted text-foreground" />
    </div>
  );
}

/** The profile editor's main form: location, address, sectors and, for Premium members, the presentations. */
export function ProfileForm({ profile, lastResult }: { profile: ProfileEditorData; lastResult?: SubmissionResult<string[]> }) {
  const navigation = useNavigation();
  const saving = navigation.state !== "idle" && navigation.formData?.get("intent") === "profile";
  const [form, fields] = useForm({
    id: "profile-editor",
    lastResult,
    defaultValue: {
      locationDepartment: profile.locationDepartment ?? "",
      locationCity: profile.locationCity ?? "",
      fullAddress: profile.fullAddress ?? "",
      specializationSectors: profile.specializationSectors,
      ...(profile.premium
        ? { detailedPresentation: profile.detailedPresentation ?? "", internalPresentation: profile.internalPresentation ?? "" }
        : {}),
    },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: profileEditorSchema }),
  });
  const initialSectors = fields.specializationSectors.initialValue;
  const sectors = Array.isArray(initialSectors)
    ? initialSectors.filter((v): v is string => typeof v === "string")
    : typeof initialSectors === "string"
      ? [initialSectors]
      : [];
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-6">
      {form.errors?.length ? (
        <Alert variant="destructive" id={form.errorId}>
          <AlertTitle>{PROFILE_MESSAGES.errorTitle}</AlertTitle>
          <AlertDescription>{form.errors[0]}</AlertDescription>
        </Alert>
      ) : null}
      <Panel id="identite" title="Informations professionnelles" description="Vérifiées lors de votre adhésion, ces informations ne sont pas modifiables ici.">
        <div className="grid gap-4 sm:grid-cols-2">
          <ReadOnlyField id="profile-first-name" label="Prénom" value={profile.firstName} />
          <ReadOnlyField id="profile-last-name" label="Nom" value={profile.lastName} />
          <ReadOnlyField id="profile-company" label="Société / cabinet" value={profile.company} />
          <ReadOnlyField id="profile-profession" label="Profession" value={profile.professionLabel} />
          <ReadOnlyField id="profile-college" label="Collège" value={profile.collegeLabel} />
        </div>
        <p className="text-xs text-muted-foreground">
          Une correction à apporter&nbsp;? <Link to="/contact" className="text-primary underline">Contactez l’équipe</Link>.
        </p>
      </Panel>
      <Panel id="localisation" title="Localisation">
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="grid gap-2">
            <Label htmlFor={fields.locationDepartment.id}>Département</Label>
            <NativeSelect
              {...getSelectProps(fields.locationDepartment)}
              key={fields.locationDepartment.key}
              aria-required="true"
              aria-invalid={fields.locationDepartment.errors ? true : undefined}
              aria-describedby={fields.locationDepartment.errors ? fields.locationDepartment.errorId : undefined}
            >
              <option value="">Sélectionnez votre département</option>
              {DEPARTMENTS.map((d) => (
                <option key={d.code} value={d.code}>
                  {d.code} - {d.name}
                </option>
              ))}
            </NativeSelect>
            <FieldError id={fields.locationDepartment.errorId} errors={fields.locationDepartment.errors} />
          </div>
          <TextField
            label="Ville"
            inputProps={{ ...getInputProps(fields.locationCity, { type: "text" }), key: fields.locationCity.key, autoComplete: "address-level2", maxLength: PROFILE_LIMITS.city }}
            errors={fields.locationCity.errors}
            errorId={fields.locationCity.errorId}
          />
        </div>
        <TextField
          label="Adresse complète"
          hint="Numéro, rue, code postal et ville de votre cabinet"
          inputProps={{ ...getInputProps(fields.fullAddress, { type: "text" }), key: fields.fullAddress.key, autoComplete: "street-address", maxLength: PROFILE_LIMITS.address }}
          errors={fields.fullAddress.errors}
          errorId={fields.fullAddress.errorId}
        />
      </Panel>
      <Panel id="secteurs" title="Expertise">
        <SectorPicker name={fields.specializationSectors.name} defaultValue={sectors} errors={fields.specializationSectors.errors} />
      </Panel>
      {profile.premium ? (
        <Panel id="presentations" title="Présentations" description="Réservées aux membres Premium.">
          <div className="grid gap-2">
            <Label htmlFor={fields.detailedPresentation.id}>Présentation détaillée (profil public)</Label>
            <Textarea
              {...getTextareaProps(fields.detailedPresentation)}
              key={fields.detailedPresentation.key}
              rows={6}
              maxLength={PROFILE_LIMITS.detailedPresentation}
              aria-describedby={`${fields.detailedPresentation.id}-hint${fields.detailedPresentation.errors ? ` ${fields.detailedPresentation.errorId}` : ""}`}
              aria-invalid={fields.detailedPresentation.errors ? true : undefined}
            />
            <p id={`${fields.detailedPresentation.id}-hint`} className="text-xs text-muted-foreground">
              Affichée sur votre page publique dans l’annuaire des professionnels agréés.
            </p>
            <FieldError id={fields.detailedPresentation.errorId} errors={fields.detailedPresentation.errors} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={fields.internalPresentation.id}>Présentation interne (réservée aux confrères)</Label>
            <Textarea
              {...getTextareaProps(fields.internalPresentation)}
              key={fields.internalPresentation.key}
              rows={4}
              maxLength={PROFILE_LIMITS.internalPresentation}
              aria-describedby={`${fields.internalPresentation.id}-hint${fields.internalPresentation.errors ? ` ${fields.internalPresentation.errorId}` : ""}`}
              aria-invalid={fields.internalPresentation.errors ? true : undefined}
            />
            <p id={`${fields.internalPresentation.id}-hint`} className="text-xs text-muted-foreground">
              Visible uniquement des membres dans l’annuaire interne.
            </p>
            <FieldError id={fields.internalPresentation.errorId} errors={fields.internalPresentation.errors} />
          </div>
        </Panel>
      ) : null}
      <div>
        <Button type="submit" name="intent" value="profile" size="lg" disabled={saving}>
          {saving ? "Sauvegarde..." : "Sauvegarder"}
        </Button>
      </div>
    </Form>
  );
}
