// The mandate form (spec §2 "Mandate form", §5): one Conform form for creation and edition.
// Buyer criteria or seller information show according to the chosen type with CSS only
// (`:has()`), so the form behaves the same before JavaScript loads.
import {
  type FieldMetadata,
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  type SubmissionResult,
  useForm,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Checkbox, FieldError, Input, Label, NativeSelect, Textarea } from "~/components/ui/input";
import { DEPARTMENTS, SECTORS } from "~/db/reference";
import {
  addDaysIso,
  DEFAULT_MANDATE_DAYS,
  FRANCE_TERRITORY,
  MA_USAGE_LABELS,
  MA_USAGES,
  PROJECT_TIMELINE_LABELS,
  PROJECT_TIMELINES,
  quotaBanner,
  TARGET_BUYER_TYPE_LABELS,
  TARGET_BUYER_TYPES,
} from "../mandate-rules";
import { mandateFormSchema, type MandateInput } from "../mandates.schema";
import type { OwnMandate } from "../mandates.server";
import { useHydrated } from "~/lib/use-hydrated";

type Text = string | undefined;
type List = string[] | undefined;

/** The form's fields as submitted (all text; lists from repeated checkboxes). */
export type MandateFormValues = {
  mandateId?: Text;
  mandateType?: Text;
  isExclusive?: Text;
  startDate?: Text;
  endDate?: Text;
  clientCode?: Text;
  clientName?: Text;
  clientAddress?: Text;
  description?: Text;
  searchSectors?: List;
  searchTerritories?: List;
  targetAmountMin?: Text;
  targetAmountMax?: Text;
  contributionMin?: Text;
  contributionMax?: Text;
  maUsage?: Text;
  companySector?: Text;
  companyTerritory?: Text;
  companyDescription?: Text;
  valuationAmount?: Text;
  requiredContributionMin?: Text;
  requiredContributionMax?: Text;
  projectTimeline?: Text;
  targetBuyerTypes?: List;
};

function asArray(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return typeof value === "string" && value ? [value] : [];
}

function describedBy(...ids: Array<string | false | undefined>) {
  const list = ids.filter(Boolean).join(" ");
  return list || undefined;
}

function TextInput({
  field,
  label,
  hint,
  type = "text",
  inputMode,
  autoComplete,
  maxLength,
}: {
  field: FieldMetadata<Text, MandateFormValues>;
  label: string;
  hint?: string;
  type?: "text" | "date";
  inputMode?: "numeric";
  autoComplete?: string;
  maxLength?: number;
}) {
  const hintId = hint ? `${field.id}-hint` : undefined;
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={field.id}>{label}</Label>
      <Input
        {...getInputProps(field, { type })}
        key={field.key}
        inputMode={inputMode}
        autoComplete={autoComplete ?? "off"}
        maxLength={maxLength}
        aria-invalid={field.errors ? true : undefined}
        aria-describedby={describedBy(hintId, field.errors && field.errorId)}
      />
      {hint ? (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      <FieldError id={field.errorId} errors={field.errors} />
    </div>
  );
}

function AmountInput({ field, label }: { field: FieldMetadata<Text, MandateFormValues>; label: string }) {
  return <TextInput field={field} label={label} inputMode="numeric" hint="En euros, par exemple 500 000" maxLength={20} />;
}

function SelectInput({
  field,
  label,
  options,
  placeholder = "Non spécifié",
}: {
  field: FieldMetadata<Text, MandateFormValues>;
  label: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  placeholder?: string;
}) {
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={field.id}>{label}</Label>
      <NativeSelect
        {...getSelectProps(field)}
        key={field.key}
        aria-invalid={field.errors ? true : undefined}
        aria-describedby={field.errors ? field.errorId : undefined}
      >
        <option value="">{placeholder}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </NativeSelect>
      <FieldError id={field.errorId} errors={field.errors} />
    </div>
  );
}

function CheckboxGroup({
  field,
  legend,
  options,
  scroll = false,
  columns = 2,
}: {
  field: FieldMetadata<List, MandateFormValues>;
  legend: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  scroll?: boolean;
  columns?: 1 | 2;
}) {
  const initial = asArray(field.initialValue);
  return (
    <fieldset className="grid gap-2" aria-describedby={field.errors ? field.errorId : undefined}>
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      <div
        className={
          scroll
            ? "grid max-h-52 gap-1 overflow-y-auto rounded-md border p-2 sm:grid-cols-2"
            : columns === 2
              ? "grid gap-1 sm:grid-cols-2"
              : "grid gap-1"
        }
        tabIndex={scroll ? 0 : undefined}
        role={scroll ? "group" : undefined}
        aria-label={scroll ? legend : undefined}
      >
        {options.map((o) => (
          <label key={o.value} className="flex items-start gap-2 rounded px-1 py-1 text-sm hover:bg-muted">
            <Checkbox
              name={field.name}
              value={o.value}
              defaultChecked={initial.includes(o.value)}
              className="mt-0.5"
              key={`${field.key ?? ""}-${o.value}`}
            />
            <span>{o.label}</span>
          </label>
        ))}
      </div>
      <FieldError id={field.errorId} errors={field.errors} />
    </fieldset>
  );
}

type MandateDefaultsSource = Omit<OwnMandate, "createdAt" | "pendingReceived" | "status">;

/** The form's initial values: today and +90 days for a new mandate, the stored values otherwise. */
export function mandateFormDefaults(m: MandateDefaultsSource | undefined, today: string): MandateFormValues {
  if (!m) {
    return { mandateType: "buyer", startDate: today, endDate: addDaysIso(today, DEFAULT_MANDATE_DAYS) };
  }
  const amount = (v: number | null) => (v === null ? undefined : String(v));
  const list = (v: readonly string[] | null) => (v ? [...v] : undefined);
  return {
    mandateId: m.id,
    mandateType: m.mandateType,
    isExclusive: m.isExclusive ? "on" : undefined,
    startDate: m.startDate,
    endDate: m.endDate,
    clientCode: m.clientCode,
    clientName: m.clientName,
    clientAddress: m.clientAddress,
    description: m.description ?? undefined,
    searchSectors: list(m.searchSectors),
    searchTerritories: list(m.searchTerritories),
    targetAmountMin: amount(m.targetAmountMin),
    targetAmountMax: amount(m.targetAmountMax),
    contributionMin: amount(m.contributionMin),
    contributionMax: amount(m.contributionMax),
    maUsage: m.maUsage ?? undefined,
    companySector: m.companySector ?? undefined,
    companyTerritory: m.companyTerritory ?? undefined,
    companyDescription: m.companyDescription ?? undefined,
    valuationAmount: amount(m.valuationAmount),
    requiredContributionMin: amount(m.requiredContributionMin),
    requiredContributionMax: amount(m.requiredContributionMax),
    projectTimeline: m.projectTimeline ?? undefined,
    targetBuyerTypes: list(m.targetBuyerTypes),
  };
}

const SECTOR_OPTIONS = SECTORS.map((s) => ({ value: s.code, label: `${s.code} - ${s.name}` }));
const DEPARTMENT_OPTIONS = DEPARTMENTS.map((d) => ({ value: d.code, label: `${d.code} - ${d.name}` }));
const MA_USAGE_OPTIONS = MA_USAGES.map((v) => ({ value: v, label: MA_USAGE_LABELS[v] }));
const TIMELINE_OPTIONS = PROJECT_TIMELINES.map((v) => ({ value: v, label: PROJECT_TIMELINE_LABELS[v] }));
const BUYER_TYPE_OPTIONS = TARGET_BUYER_TYPES.map((v) => ({ value: v, label: TARGET_BUYER_TYPE_LABELS[v] }));

export function MandateForm({
  mode,
  defaultValue,
  lastResult,
  quota,
  cancelTo,
}: {
  mode: "create" | "edit";
  defaultValue: MandateFormValues;
  lastResult?: SubmissionResult<string[]>;
  /** Freemium creation only: mandates used this semester. */
  quota?: { used: number } | null;
  cancelTo: string;
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const intent = mode === "create" ? "create" : "update";
  const [form, fields] = useForm<MandateFormValues, MandateInput>({
    id: mode === "create" ? "mandate-create" : `mandate-edit-${String(defaultValue.mandateId ?? "")}`,
    lastResult,
    defaultValue,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: mandateFormSchema }),
  });
  const [exclusive, setExclusive] = useState(defaultValue.isExclusive === "on");
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const initialType = fields.mandateType.initialValue === "seller" ? "seller" : "buyer";
  const territories = asArray(fields.searchTerritories.initialValue);

  return (
    <Form method="post" {...getFormProps(form)} className="group/mandate grid gap-6" preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      {mode === "edit" ? <input type="hidden" name="mandateId" value={String(defaultValue.mandateId ?? "")} /> : null}
      {quota ? (
        <Alert variant="info">
          <AlertDescription>{quotaBanner(quota.used)}</AlertDescription>
        </Alert>
      ) : null}
      {form.errors?.length ? (
        <Alert variant="destructive" id={form.errorId}>
          <AlertDescription>{form.errors[0]}</AlertDescription>
        </Alert>
      ) : null}

      <fieldset className="grid gap-2">
        <legend className="mb-1 font-semibold">Type de mandat</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {(["buyer", "seller"] as const).map((type) => (
            <label
              key={type}
              className="flex items-center gap-3 rounded-md border p-3 text-sm has-[:checked]:border-primary has-[:checked]:bg-blue-50"
            >
              <input
                type="radio"
                id={`${form.id}-type-${type}`}
                name={fields.mandateType.name}
                value={type}
                defaultChecked={initialType === type}
                className={`h-4 w-4 accent-primary mandate-type-${type}`}
              />
              {type === "buyer" ? "Mandat acquéreur" : "Mandat cédant"}
            </label>
          ))}
        </div>
      </fieldset>

      <div className="grid gap-2 rounded-md border p-3">
        <p id={`${form.id}-exclusive-label`} className="text-sm font-semibold">
          Mandat exclusif (obligatoire)
        </p>
        <label className="flex items-start gap-3 text-sm">
          <Checkbox
            id={fields.isExclusive.id}
            name={fields.isExclusive.name}
            defaultChecked={defaultValue.isExclusive === "on"}
            onChange={(e) => setExclusive(e.currentTarget.checked)}
            className="mt-0.5"
            aria-invalid={fields.isExclusive.errors ? true : undefined}
            aria-describedby={describedBy(`${form.id}-exclusive-label`, fields.isExclusive.errors && fields.isExclusive.errorId)}
          />
          <span>Je certifie que ce mandat est exclusif</span>
        </label>
        <FieldError id={fields.isExclusive.errorId} errors={fields.isExclusive.errors} />
      </div>

      <div className="grid gap-4 sm:grid-cols-2">
        <TextInput field={fields.startDate} label="Date de début" type="date" />
        <TextInput field={fields.endDate} label="Date de fin" type="date" />
      </div>

      <fieldset className="grid gap-4 rounded-md border border-amber-200 bg-amber-50/50 p-4">
        <legend className="px-1 font-semibold">Informations client confidentielles</legend>
        <p className="text-xs text-muted-foreground">
          Le nom et l'adresse du client ne sont communiqués à un confrère qu'après une mise en relation acceptée par les deux
          parties et la signature d'un engagement de confidentialité. Les confrères ne voient que le code.
        </p>
        <TextInput field={fields.clientCode} label="Initiales ou nom de code du client" maxLength={50} />
        <TextInput field={fields.clientName} label="Nom du client" maxLength={200} />
        <div className="grid gap-2">
          <Label htmlFor={fields.clientAddress.id}>Adresse du client</Label>
          <Textarea
            {...getTextareaProps(fields.clientAddress)}
            key={fields.clientAddress.key}
            rows={2}
            maxLength={500}
            aria-invalid={fields.clientAddress.errors ? true : undefined}
            aria-describedby={fields.clientAddress.errors ? fields.clientAddress.errorId : undefined}
          />
          <FieldError id={fields.clientAddress.errorId} errors={fields.clientAddress.errors} />
        </div>
      </fieldset>

      {/* Buyer only: hidden as soon as the seller type is chosen (CSS, works without JS). */}
      <fieldset className="grid gap-4 rounded-md border p-4 group-has-[.mandate-type-seller:checked]/mandate:hidden">
        <legend className="px-1 font-semibold">Critères de l'acquéreur</legend>
        <CheckboxGroup field={fields.searchSectors} legend="Secteurs recherchés" options={SECTOR_OPTIONS} scroll />
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-medium">Territoires recherchés</legend>
          <label className="flex items-center gap-2 text-sm font-medium">
            <Checkbox name={fields.searchTerritories.name} value={FRANCE_TERRITORY} defaultChecked={territories.includes(FRANCE_TERRITORY)} />
            France entière
          </label>
          <div className="grid max-h-52 gap-1 overflow-y-auto rounded-md border p-2 sm:grid-cols-2" role="group" aria-label="Départements" tabIndex={0}>
            {DEPARTMENT_OPTIONS.map((o) => (
              <label key={o.value} className="flex items-start gap-2 rounded px-1 py-1 text-sm hover:bg-muted">
                <Checkbox name={fields.searchTerritories.name} value={o.value} defaultChecked={territories.includes(o.value)} className="mt-0.5" />
                <span>{o.label}</span>
              </label>
            ))}
          </div>
          <FieldError id={fields.searchTerritories.errorId} errors={fields.searchTerritories.errors} />
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          <AmountInput field={fields.targetAmountMin} label="Montant cible minimum" />
          <AmountInput field={fields.targetAmountMax} label="Montant cible maximum" />
          <AmountInput field={fields.contributionMin} label="Apport minimum" />
          <AmountInput field={fields.contributionMax} label="Apport maximum" />
        </div>
        <SelectInput field={fields.maUsage} label="Usage du M&A" options={MA_USAGE_OPTIONS} />
      </fieldset>

      {/* Seller only. */}
      <fieldset className="hidden gap-4 rounded-md border p-4 group-has-[.mandate-type-seller:checked]/mandate:grid">
        <legend className="px-1 font-semibold">Informations sur l'entreprise cédée</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectInput field={fields.companySector} label="Secteur d'activité" options={SECTOR_OPTIONS} />
          <SelectInput field={fields.companyTerritory} label="Localisation (département)" options={DEPARTMENT_OPTIONS} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={fields.companyDescription.id}>Description de l'entreprise</Label>
          <Textarea {...getTextareaProps(fields.companyDescription)} key={fields.companyDescription.key} rows={3} maxLength={5000} />
          <FieldError id={fields.companyDescription.errorId} errors={fields.companyDescription.errors} />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <AmountInput field={fields.valuationAmount} label="Valorisation" />
          <SelectInput field={fields.projectTimeline} label="Délai du projet" options={TIMELINE_OPTIONS} />
          <AmountInput field={fields.requiredContributionMin} label="Apport requis minimum" />
          <AmountInput field={fields.requiredContributionMax} label="Apport requis maximum" />
        </div>
        <CheckboxGroup field={fields.targetBuyerTypes} legend="Types d'acquéreurs ciblés" options={BUYER_TYPE_OPTIONS} />
      </fieldset>

      <div className="grid gap-2">
        <Label htmlFor={fields.description.id}>Description générale</Label>
        <Textarea
          {...getTextareaProps(fields.description)}
          key={fields.description.key}
          rows={3}
          maxLength={5000}
          aria-describedby={`${fields.description.id}-hint`}
        />
        <p id={`${fields.description.id}-hint`} className="text-xs text-muted-foreground">
          Visible par les confrères : n'y mentionnez pas l'identité du client.
        </p>
        <FieldError id={fields.description.errorId} errors={fields.description.errors} />
      </div>

      <div className="flex flex-col-reverse gap-2 border-t pt-4 sm:flex-row sm:justify-end">
        <Button asChild variant="outline">
          <Link to={cancelTo} preventScrollReset>
            Annuler
          </Link>
        </Button>
        <Button type="submit" disabled={busy || (hydrated && !exclusive)}>
          {busy ? "Enregistrement..." : mode === "create" ? "Créer le mandat" : "Mettre à jour"}
        </Button>
      </div>
    </Form>
  );
}
