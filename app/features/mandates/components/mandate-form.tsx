// The mandate form (spec §2 "Mandate form", §5): one Conform form for creation and
// edition, in four steps — type and exclusivity → criteria (buyer) or company (seller) →
// confidential client → review. Every field stays in the one form: the steps only show a part of
// it, so nothing typed is lost going back and forth, and the server validates the whole. Before
// JavaScript runs, every step shows at once (buyer or seller fields by CSS `:has()`).
import { getFormProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useRef, useState } from "react";
import { Form, useNavigation } from "react-router";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { DismissLink } from "~/components/page";
import { Checkbox, FieldError, Label, Textarea } from "~/components/ui/input";
import { SECTORS } from "~/db/reference";
import { cn } from "~/lib/utils";
import { useHydrated } from "~/lib/use-hydrated";
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
  type MandateType,
} from "../mandate-rules";
import { firstStepWithError, MANDATE_STEPS, mandateStepTitle, stepFields, stepOfField, type MandateStep } from "../mandate-steps";
import { mandateFormSchema, type MandateInput } from "../mandates.schema";
import type { OwnMandate } from "../mandates.server";
import { departmentGroups } from "../regions";
import {
  AmountInput,
  CheckboxGroup,
  describedBy,
  type MandateFormValues,
  RequiredMark,
  SelectInput,
  TextInput,
} from "./mandate-fields";
import { MandateReview } from "./mandate-review";
import { MultiSelect } from "./multi-select";

export type { MandateFormValues } from "./mandate-fields";

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
const SECTOR_GROUPS = [{ label: "Secteurs (sections NAF)", options: SECTOR_OPTIONS }];
const DEPARTMENT_GROUPS = departmentGroups();
const TERRITORY_GROUPS = [{ label: "Toute la France", options: [{ value: FRANCE_TERRITORY, label: "France entière" }] }, ...DEPARTMENT_GROUPS];
const MA_USAGE_OPTIONS = MA_USAGES.map((v) => ({ value: v, label: MA_USAGE_LABELS[v] }));
const TIMELINE_OPTIONS = PROJECT_TIMELINES.map((v) => ({ value: v, label: PROJECT_TIMELINE_LABELS[v] }));
const BUYER_TYPE_OPTIONS = TARGET_BUYER_TYPES.map((v) => ({ value: v, label: TARGET_BUYER_TYPE_LABELS[v] }));

type Errors = Record<string, string[] | null | undefined>;

export function MandateForm({
  mode,
  defaultValue,
  lastResult,
  quota,
  cancelTo,
  labelledBy,
}: {
  mode: "create" | "edit";
  defaultValue: MandateFormValues;
  lastResult?: SubmissionResult<string[]>;
  /** Freemium creation only: mandates used this semester. */
  quota?: { used: number } | null;
  cancelTo: string;
  /** The page heading that names the form. */
  labelledBy: string;
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
  const [type, setType] = useState<MandateType>(fields.mandateType.initialValue === "seller" ? "seller" : "buyer");
  // After a server answer, the certification as it was sent.
  const certified = fields.isExclusive.initialValue === "on";
  const [exclusive, setExclusive] = useState(certified);
  const [step, setStep] = useState<MandateStep>(() => firstStepWithError(lastResult?.error) ?? "type");
  const [reached, setReached] = useState(() => MANDATE_STEPS.indexOf(step));
  const [review, setReview] = useState<MandateInput | null>(null);
  const focusTarget = useRef<string | null>(null);
  // Bumped by each move, even to the same step (an error in the step shown): focus follows.
  const [moves, setMoves] = useState(0);
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const index = MANDATE_STEPS.indexOf(step);
  const formProps = getFormProps(form);
  const uid = form.id;

  const formElement = () => document.getElementById(form.id) as HTMLFormElement | null;
  /** The errors of what the form holds now, as the server would find them. */
  const currentErrors = (): Errors => {
    const el = formElement();
    if (!el) return {};
    const submission = parseWithZod(new FormData(el), { schema: mandateFormSchema });
    return submission.status === "success" ? {} : ((submission.error ?? {}) as Errors);
  };
  /** What will be saved (the certification aside), for the review. */
  const snapshot = (): MandateInput | null => {
    const el = formElement();
    if (!el) return null;
    const data = new FormData(el);
    data.set("isExclusive", "on");
    const submission = parseWithZod(data, { schema: mandateFormSchema });
    return submission.status === "success" ? submission.value : null;
  };
  const goTo = (next: MandateStep, focus: string | null = null) => {
    if (next === "review") setReview(snapshot());
    setStep(next);
    setReached((r) => Math.max(r, MANDATE_STEPS.indexOf(next)));
    focusTarget.current = focus ?? `${uid}-step-${next}-title`;
    setMoves((n) => n + 1);
  };
  /** Shows the errors of `at` and brings its first invalid field into view. */
  const showErrors = (at: MandateStep, errors: Errors) => {
    for (const name of stepFields(at)) form.validate({ name });
    const first = Object.keys(errors).find((k) => errors[k]?.length && stepOfField(k) === at);
    goTo(at, first ? `${uid}-${first.replace(/\[\d+\]$/, "")}` : null);
  };
  const next = () => {
    const errors = currentErrors();
    if (Object.keys(errors).some((k) => errors[k]?.length && stepOfField(k) === step)) {
      showErrors(step, errors);
      return;
    }
    goTo(MANDATE_STEPS[Math.min(index + 1, MANDATE_STEPS.length - 1)]);
  };

  // An answer from the server with errors: back to the first step holding one.
  useEffect(() => {
    const at = firstStepWithError(lastResult?.error);
    if (at) goTo(at, `${uid}-step-${at}-title`);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when a new answer arrives
  }, [lastResult]);

  // After a step change: the step's heading (announced), or the field in error.
  useEffect(() => {
    const id = focusTarget.current;
    focusTarget.current = null;
    if (!id) return;
    let el = document.getElementById(id);
    if (el instanceof HTMLFieldSetElement) el = el.querySelector<HTMLElement>("input:not([type=hidden]), select, textarea") ?? el;
    el?.focus();
  }, [moves]);

  const validateField = (name: string) => form.validate({ name });
  const stepShown = (s: MandateStep) => !hydrated || s === step;
  const stepTitle = (s: MandateStep) => mandateStepTitle(s, type);

  const stepHeading = (s: MandateStep) => (
    <h2 id={`${uid}-step-${s}-title`} tabIndex={-1} className="text-lg font-semibold focus:outline-none">
      <span className="block text-sm font-normal text-muted-foreground">
        Étape {MANDATE_STEPS.indexOf(s) + 1} sur {MANDATE_STEPS.length}
      </span>
      <span className="sr-only">&nbsp;: </span>
      {stepTitle(s)}
    </h2>
  );

  const stepNav = (s: MandateStep) =>
    hydrated ? (
      <div className="flex flex-col-reverse gap-2 border-t pt-4 sm:flex-row sm:justify-between">
        {s === "type" ? (
          <DismissLink to={cancelTo} label="Annuler" />
        ) : (
          <Button type="button" variant="outline" onClick={() => goTo(MANDATE_STEPS[MANDATE_STEPS.indexOf(s) - 1])}>
            Précédent
          </Button>
        )}
        <Button type="button" onClick={next}>
          Suivant
        </Button>
      </div>
    ) : null;

  const disabledReasonId = `${uid}-submit-reason`;
  const submitDisabled = busy || (hydrated && !exclusive);

  return (
    <Form
      method="post"
      {...formProps}
      aria-labelledby={labelledBy}
      onSubmit={(event) => {
        // Conform validates a field by submitting an intent: that is not the member's submission.
        const submitter = (event.nativeEvent as SubmitEvent).submitter;
        if (hydrated && !(submitter instanceof HTMLButtonElement && submitter.name === "__intent__")) {
          // Enter on an earlier step goes to the next one; a submission with an error in an
          // earlier step goes back to it.
          if (step !== "review") {
            event.preventDefault();
            next();
            return;
          }
          const errors = currentErrors();
          const at = firstStepWithError(errors);
          if (at && at !== "review") {
            event.preventDefault();
            showErrors(at, errors);
            return;
          }
        }
        formProps.onSubmit(event);
      }}
      onKeyDown={(event) => {
        // Enter in a field of an earlier step goes to the next step (the submit button, disabled
        // until the certification is ticked, would otherwise swallow it).
        const target = event.target;
        if (!hydrated || step === "review" || event.key !== "Enter" || event.defaultPrevented) return;
        if (target instanceof HTMLInputElement && !["checkbox", "radio", "button", "submit"].includes(target.type)) {
          event.preventDefault();
          next();
        }
      }}
      className="group/mandate grid gap-6"
      preventScrollReset
    >
      <input type="hidden" name="intent" value={intent} />
      {mode === "edit" ? <input type="hidden" name="mandateId" value={String(defaultValue.mandateId ?? "")} /> : null}
      {quota ? (
        <Alert variant="info">
          <AlertDescription>{quotaBanner(quota.used)}</AlertDescription>
        </Alert>
      ) : null}
      {hydrated ? (
        <nav aria-label="Étapes du mandat">
          <ol className="grid grid-cols-4 gap-1 text-xs sm:text-sm">
            {MANDATE_STEPS.map((s, i) => {
              const current = s === step;
              const label = (
                <>
                  <span
                    aria-hidden="true"
                    className={cn(
                      "grid h-7 w-7 shrink-0 place-items-center rounded-full border text-xs font-semibold",
                      current ? "border-primary bg-primary text-primary-foreground" : i <= reached ? "border-primary text-primary" : "text-muted-foreground",
                    )}
                  >
                    {i + 1}
                  </span>
                  {/* On a phone the step's heading below names it: a label in a quarter of 360 px would cut its words. */}
                  <span className="min-w-0 max-sm:sr-only">{stepTitle(s)}</span>
                </>
              );
              return (
                <li key={s} aria-current={current ? "step" : undefined} className={cn("border-b-2 pb-2", current ? "border-primary font-semibold" : "border-muted")}>
                  {i <= reached && !current ? (
                    <button type="button" onClick={() => goTo(s)} className="flex items-center gap-2 rounded text-left hover:underline focus-visible:outline-2 focus-visible:outline-ring">
                      {label}
                      <span className="sr-only"> (revenir à cette étape)</span>
                    </button>
                  ) : (
                    <span className="flex items-center gap-2">{label}</span>
                  )}
                </li>
              );
            })}
          </ol>
        </nav>
      ) : null}
      <p className="text-sm text-muted-foreground">Les champs marqués d’un astérisque (*) sont obligatoires.</p>
      {form.errors?.length ? (
        <Alert variant="destructive" id={form.errorId}>
          <AlertDescription>{form.errors[0]}</AlertDescription>
        </Alert>
      ) : null}

      <section aria-labelledby={`${uid}-step-type-title`} hidden={!stepShown("type")} className="grid gap-6">
        {stepHeading("type")}
        <fieldset className="grid gap-2">
          <legend className="mb-1 font-semibold">Type de mandat</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {(["buyer", "seller"] as const).map((t) => (
              <label key={t} className="flex items-center gap-3 rounded-md border p-3 text-sm has-[:checked]:border-primary has-[:checked]:bg-blue-50">
                <input
                  type="radio"
                  id={t === "buyer" ? fields.mandateType.id : `${uid}-type-${t}`}
                  name={fields.mandateType.name}
                  value={t}
                  defaultChecked={type === t}
                  onChange={() => setType(t)}
                  className={`h-4 w-4 accent-primary mandate-type-${t}`}
                />
                {t === "buyer" ? "Mandat acquéreur" : "Mandat cédant"}
              </label>
            ))}
          </div>
        </fieldset>
        <p className="rounded-md border bg-muted/40 p-3 text-sm">
          Seuls les mandats exclusifs peuvent être enregistrés&nbsp;: vous certifierez l’exclusivité de ce mandat à la dernière étape, juste avant de l’enregistrer.
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextInput field={fields.startDate} label="Date de début" type="date" required />
          <TextInput field={fields.endDate} label="Date de fin" type="date" required />
        </div>
        {stepNav("type")}
      </section>

      <section aria-labelledby={`${uid}-step-details-title`} hidden={!stepShown("details")} className="grid gap-6">
        {stepHeading("details")}
        {/* Buyer only: hidden as soon as the seller type is chosen (CSS, works without JS). */}
        <fieldset className="grid gap-6 group-has-[.mandate-type-seller:checked]/mandate:hidden">
          <legend className="sr-only">Critères de l’acquéreur</legend>
          <MultiSelect field={fields.searchSectors} legend="Secteurs recherchés" groups={SECTOR_GROUPS} filterLabel="Filtrer les secteurs" noun={["secteur", "secteurs"]} />
          <MultiSelect
            field={fields.searchTerritories}
            legend="Territoires recherchés"
            groups={TERRITORY_GROUPS}
            filterLabel="Filtrer les départements ou les régions"
            noun={["territoire", "territoires"]}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <AmountInput field={fields.targetAmountMin} label="Montant cible minimum" onBlur={validateField} />
            <AmountInput field={fields.targetAmountMax} label="Montant cible maximum" onBlur={validateField} />
            <AmountInput field={fields.contributionMin} label="Apport minimum" onBlur={validateField} />
            <AmountInput field={fields.contributionMax} label="Apport maximum" onBlur={validateField} />
          </div>
          <SelectInput field={fields.maUsage} label="Usage du M&A" options={MA_USAGE_OPTIONS} />
        </fieldset>

        {/* Seller only. */}
        <fieldset className="hidden gap-6 group-has-[.mandate-type-seller:checked]/mandate:grid">
          <legend className="sr-only">Informations sur l’entreprise cédée</legend>
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectInput field={fields.companySector} label="Secteur d’activité" options={SECTOR_OPTIONS} />
            <SelectInput field={fields.companyTerritory} label="Localisation (département)" groups={DEPARTMENT_GROUPS} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={fields.companyDescription.id}>Description de l’entreprise</Label>
            <Textarea {...getTextareaProps(fields.companyDescription)} key={fields.companyDescription.key} rows={3} maxLength={5000} />
            <FieldError id={fields.companyDescription.errorId} errors={fields.companyDescription.errors} />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <AmountInput field={fields.valuationAmount} label="Valorisation" onBlur={validateField} />
            <SelectInput field={fields.projectTimeline} label="Délai du projet" options={TIMELINE_OPTIONS} />
            <AmountInput field={fields.requiredContributionMin} label="Apport requis minimum" onBlur={validateField} />
            <AmountInput field={fields.requiredContributionMax} label="Apport requis maximum" onBlur={validateField} />
          </div>
          <CheckboxGroup field={fields.targetBuyerTypes} legend="Types d’acquéreurs ciblés" options={BUYER_TYPE_OPTIONS} />
        </fieldset>

        <div className="grid gap-2">
          <Label htmlFor={fields.description.id}>Description générale</Label>
          <Textarea
            {...getTextareaProps(fields.description)}
            key={fields.description.key}
            rows={3}
            maxLength={5000}
            aria-describedby={describedBy(`${fields.description.id}-hint`, fields.description.errors && fields.description.errorId)}
          />
          <p id={`${fields.description.id}-hint`} className="text-xs text-muted-foreground">
            Visible par les confrères&nbsp;: n’y mentionnez pas l’identité du client.
          </p>
          <FieldError id={fields.description.errorId} errors={fields.description.errors} />
        </div>
        {stepNav("details")}
      </section>

      <section aria-labelledby={`${uid}-step-client-title`} hidden={!stepShown("client")} className="grid gap-6">
        {stepHeading("client")}
        <fieldset className="grid gap-4 rounded-md border border-amber-200 bg-amber-50/50 p-4">
          <legend className="px-1 font-semibold">Informations client confidentielles</legend>
          <p className="text-xs text-muted-foreground">
            Le nom et l’adresse du client ne sont communiqués à un confrère qu’après une mise en relation acceptée par les deux
            parties et la signature d’un engagement de confidentialité. Les confrères ne voient que le code.
          </p>
          <TextInput field={fields.clientCode} label="Initiales ou nom de code du client" maxLength={50} required />
          <TextInput field={fields.clientName} label="Nom du client" maxLength={200} required />
          <div className="grid gap-2">
            <Label htmlFor={fields.clientAddress.id}>
              Adresse du client
              <RequiredMark />
            </Label>
            <Textarea
              {...getTextareaProps(fields.clientAddress)}
              key={fields.clientAddress.key}
              rows={2}
              maxLength={500}
              aria-required
              aria-invalid={fields.clientAddress.errors ? true : undefined}
              aria-describedby={fields.clientAddress.errors ? fields.clientAddress.errorId : undefined}
            />
            <FieldError id={fields.clientAddress.errorId} errors={fields.clientAddress.errors} />
          </div>
        </fieldset>
        {stepNav("client")}
      </section>

      <section aria-labelledby={`${uid}-step-review-title`} hidden={!stepShown("review")} className="grid gap-6">
        {stepHeading("review")}
        {hydrated && review ? <MandateReview value={review} onEdit={(s) => goTo(s)} /> : null}
        <div className="grid gap-4 rounded-md border-2 border-primary/30 p-4">
          <div className="grid gap-2">
            <p id={`${uid}-exclusive-label`} className="text-sm font-semibold">
              Mandat exclusif (obligatoire)
              <RequiredMark />
            </p>
            <label className="flex items-start gap-3 text-sm">
              <Checkbox
                id={fields.isExclusive.id}
                name={fields.isExclusive.name}
                defaultChecked={certified}
                onChange={(e) => setExclusive(e.currentTarget.checked)}
                className="mt-0.5"
                aria-required
                aria-invalid={fields.isExclusive.errors ? true : undefined}
                aria-describedby={describedBy(`${uid}-exclusive-label`, fields.isExclusive.errors && fields.isExclusive.errorId)}
              />
              <span>Je certifie que ce mandat est exclusif</span>
            </label>
            <FieldError id={fields.isExclusive.errorId} errors={fields.isExclusive.errors} />
          </div>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:items-center sm:justify-between">
            {hydrated ? (
              <Button type="button" variant="outline" onClick={() => goTo("client")}>
                Précédent
              </Button>
            ) : (
              <DismissLink to={cancelTo} label="Annuler" />
            )}
            <Button type="submit" disabled={submitDisabled} aria-describedby={hydrated && !exclusive ? disabledReasonId : undefined}>
              {busy ? "Enregistrement..." : mode === "create" ? "Créer le mandat" : "Mettre à jour"}
            </Button>
          </div>
          {hydrated && !exclusive ? (
            <p id={disabledReasonId} className="text-sm text-muted-foreground sm:text-right">
              Cochez «&nbsp;Je certifie que ce mandat est exclusif&nbsp;» pour {mode === "create" ? "créer le mandat" : "mettre à jour le mandat"}.
            </p>
          ) : null}
        </div>
      </section>
    </Form>
  );
}
