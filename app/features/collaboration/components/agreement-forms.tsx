import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type FieldMetadata,
  type SubmissionResult,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { AlertTriangle, Download, Eye, FileSignature, ShieldCheck } from "lucide-react";
import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Checkbox, FieldError, Input, Label, NativeSelect, Textarea } from "~/components/ui/input";
import { formatDatePattern } from "~/lib/format";
import {
  agreementFileName,
  agreementPdfUrl,
  agreementPreviewUrl,
  allowedDueTerms,
  CLAUSES_MAX_LENGTH,
  DUE_TERM_LABELS,
  HOGUET_NOTE,
  OPERATION_CLAUSES,
  OPERATION_TYPE_LABELS,
  OPERATION_TYPES,
  type OperationType,
  type ProfessionWarning,
} from "../agreement-rules";
import { agreementSchema, signAgreementSchema } from "../agreement.schema";
import { AMOUNT_BAND_LABELS, AMOUNT_BANDS } from "../collaboration-rules";
import type { AgreementPage, AgreementView } from "../agreements.server";

export type AgreementActionResult = { intent: "create" | "sign"; error?: string; result?: SubmissionResult<string[]> };

const at = (iso: string) => formatDatePattern(iso, "dd/MM/yyyy 'à' HH:mm");

const STATUS_LABELS: Record<AgreementView["status"], string> = {
  pending: "En attente de signature",
  signed: "Signée par les deux membres",
  cancelled: "Remplacée",
};

export function ProfessionWarnings({ warnings }: { warnings: ProfessionWarning[] }) {
  if (warnings.length === 0) return null;
  return (
    <Alert className="border-amber-300 bg-amber-50 text-amber-950" data-testid="agreement-warnings">
      <AlertTitle>
        <AlertTriangle className="mr-1 inline h-4 w-4 align-[-2px]" aria-hidden="true" />
        Règles professionnelles à respecter
      </AlertTitle>
      <AlertDescription>
        <ul className="grid list-disc gap-1 pl-4">
          {warnings.map((w) => (
            <li key={`${w.code}-${w.name}`}>{w.text}</li>
          ))}
        </ul>
      </AlertDescription>
    </Alert>
  );
}

function Hash({ label, value }: { label: string; value: string }) {
  return (
    <div className="grid gap-0.5 text-sm">
      <dt className="text-muted-foreground">{label}</dt>
      <dd>
        <code className="block break-all rounded bg-muted px-2 py-1 font-mono text-xs" data-testid="agreement-sha">
          {value}
        </code>
      </dd>
    </div>
  );
}

/**
 * The document's fingerprint in plain words (what it proves, how to compare it), the hexadecimal
 * values and the command lines behind a disclosure for those who check them.
 */
function Fingerprint({ agreement, fileName }: { agreement: AgreementView; fileName: string }) {
  return (
    <section aria-labelledby={`agreement-fingerprint-${agreement.id}`} className="grid gap-2 rounded-md border p-3 text-sm" data-testid="agreement-fingerprint">
      <h5 id={`agreement-fingerprint-${agreement.id}`} className="font-semibold">
        Empreinte du document
      </h5>
      <p className="text-muted-foreground">
        Chaque PDF de la convention a une empreinte, calculée à partir de son contenu exact&nbsp;: la moindre modification du fichier la
        change. La plateforme conserve l’empreinte de chaque exemplaire, ce qui permet de vérifier que ce PDF n’a pas été modifié
        depuis sa création ou sa signature.
      </p>
      <details className="grid gap-2">
        <summary className="cursor-pointer font-medium">Détails techniques&nbsp;: empreintes SHA-256 et vérification</summary>
        <dl className="mt-2 grid gap-2">
          <Hash label="Empreinte SHA-256 du document à signer" value={agreement.documentSha256} />
          {agreement.signedSha256 ? <Hash label="Empreinte SHA-256 de l’exemplaire signé" value={agreement.signedSha256} /> : null}
        </dl>
        <p className="mt-2 text-muted-foreground">
          Pour vérifier un exemplaire téléchargé, calculez son empreinte SHA-256 et comparez-la à celle affichée ci-dessus&nbsp;: elles
          doivent être identiques.
        </p>
        <ul className="grid gap-1 text-muted-foreground">
          <li>
            Linux&nbsp;: <code className="font-mono text-xs">sha256sum {fileName}</code>
          </li>
          <li>
            macOS&nbsp;: <code className="font-mono text-xs">shasum -a 256 {fileName}</code>
          </li>
          <li>
            Windows (PowerShell)&nbsp;: <code className="font-mono text-xs">Get-FileHash {fileName} -Algorithm SHA256</code>
          </li>
        </ul>
      </details>
    </section>
  );
}

/** The pending or signed version: its terms, its hashes, its downloads and who signed. */
export function CurrentAgreement({ page, agreement, result }: { page: AgreementPage; agreement: AgreementView; result?: AgreementActionResult }) {
  const signed = agreement.status === "signed";
  return (
    <Card className="grid gap-4 p-4" aria-labelledby="agreement-current-title" data-testid="agreement-current">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 id="agreement-current-title" className="text-base font-semibold">
          <FileSignature className="mr-2 inline h-4 w-4 align-[-2px] text-muted-foreground" aria-hidden="true" />
          Convention — version {agreement.version}
        </h4>
        <Badge variant={signed ? "success" : "warning"} data-testid="agreement-status">
          {STATUS_LABELS[agreement.status]}
        </Badge>
      </div>
      <p className="text-sm text-muted-foreground">
        Proposée le <time dateTime={agreement.createdAt}>{at(agreement.createdAt)}</time> par {agreement.createdByMe ? "vous" : agreement.createdByName}.
      </p>
      <dl className="grid gap-2 text-sm sm:grid-cols-2">
        <div className="sm:col-span-2">
          <dt className="text-muted-foreground">Parties</dt>
          <dd>
            <ul className="grid gap-1" data-testid="agreement-parties">
              <li className="break-words">
                <span className="font-medium">Vous&nbsp;: </span>
                {agreement.myPartyLine}
              </li>
              <li className="break-words">
                <span className="font-medium">Votre confrère&nbsp;: </span>
                {agreement.theirPartyLine}
              </li>
            </ul>
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Opération</dt>
          <dd className="font-medium">{agreement.operationLabel}</dd>
        </div>
        {agreement.sellerIsMe === null ? null : (
          <div>
            <dt className="text-muted-foreground">Rôles</dt>
            <dd className="font-medium">
              {agreement.sellerIsMe ? "Vous conseillez le cédant, votre confrère l’acquéreur" : "Votre confrère conseille le cédant, vous l’acquéreur"}
            </dd>
          </div>
        )}
        {agreement.amountBandLabel ? (
          <div>
            <dt className="text-muted-foreground">Montant indicatif</dt>
            <dd className="font-medium">{agreement.amountBandLabel}</dd>
          </div>
        ) : null}
        <div>
          <dt className="text-muted-foreground">Répartition</dt>
          <dd className="font-medium">
            Vous&nbsp;: {agreement.myShare}&nbsp;% · votre confrère&nbsp;: {agreement.theirShare}&nbsp;%
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Règlement</dt>
          <dd className="font-medium">
            {agreement.iPay
              ? `Vous percevez les honoraires et reversez ${agreement.theirShare}\u00a0% à votre confrère`
              : `Votre confrère perçoit les honoraires et vous reverse ${agreement.myShare}\u00a0%`}
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Exigibilité</dt>
          <dd className="font-medium">{agreement.dueLabel}</dd>
        </div>
        {agreement.clauses ? (
          <div className="sm:col-span-2">
            <dt className="text-muted-foreground">Clauses particulières</dt>
            <dd className="whitespace-pre-line break-words">{agreement.clauses}</dd>
          </div>
        ) : null}
      </dl>
      <ProfessionWarnings warnings={agreement.warnings} />
      <Fingerprint agreement={agreement} fileName={agreementFileName(agreement.version, signed)} />
      <div className="flex flex-wrap gap-2">
        {signed ? (
          <Button asChild>
            <a href={agreementPdfUrl(page.fileId, agreement.id, "signed")} download>
              <Download aria-hidden="true" />
              Télécharger la convention signée
            </a>
          </Button>
        ) : null}
        <Button asChild variant="outline">
          <a href={agreementPdfUrl(page.fileId, agreement.id, "original")} download>
            <Download aria-hidden="true" />
            {signed ? "Document original (sans certificat)" : "Télécharger le PDF à signer"}
          </a>
        </Button>
      </div>
      <section aria-labelledby="agreement-signatures-title" className="grid gap-1">
        <h5 id="agreement-signatures-title" className="text-sm font-semibold">
          Signatures
        </h5>
        {agreement.signatures.length === 0 ? (
          <p className="text-sm text-muted-foreground">Aucune signature pour l’instant.</p>
        ) : (
          <ul className="grid gap-1 text-sm" aria-label="Signatures de la convention">
            {agreement.signatures.map((s) => (
              <li key={`${s.name}-${s.at}`} className="flex items-start gap-2">
                <ShieldCheck className="mt-0.5 h-4 w-4 shrink-0 text-green-700" aria-hidden="true" />
                <span>
                  Signée par {s.byMe ? "vous" : s.name} le <time dateTime={s.at}>{at(s.at)}</time>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      {signed ? (
        <p className="text-sm text-muted-foreground">
          L’exemplaire signé comporte, en dernière page, le certificat de signature (date, adresse IP, navigateur et empreinte du
          document signé par chacun). Pour vérifier qu’un exemplaire n’a pas été modifié, comparez son empreinte à celle du dossier
          (voir «&nbsp;Empreinte du document&nbsp;» ci-dessus).
        </p>
      ) : agreement.signedByMe ? (
        <Alert>
          <AlertDescription>Vous avez signé cette version. Elle sera définitive quand votre confrère l’aura signée à son tour.</AlertDescription>
        </Alert>
      ) : page.signBlockedBy ? (
        <Alert>
          <AlertDescription>{page.signBlockedBy}</AlertDescription>
        </Alert>
      ) : (
        <SignForm agreement={agreement} twoFactor={page.twoFactor} result={result?.intent === "sign" ? result : undefined} />
      )}
    </Card>
  );
}

function SignForm({ agreement, twoFactor, result }: { agreement: AgreementView; twoFactor: boolean; result?: AgreementActionResult }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "sign";
  const [form, fields] = useForm({
    id: `agreement-sign-${agreement.id}`,
    lastResult: result?.result,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signAgreementSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-3 rounded-md border border-primary p-3" aria-labelledby={`${form.id}-title`}>
      <h5 id={`${form.id}-title`} className="font-semibold">
        Signer la version {agreement.version}
      </h5>
      <input type="hidden" name="intent" value="sign" />
      <input type="hidden" name="agreementId" value={agreement.id} />
      <input type="hidden" name="documentSha256" value={agreement.documentSha256} />
      {result?.error ? (
        <Alert variant="destructive" role="alert">
          <AlertDescription>{result.error}</AlertDescription>
        </Alert>
      ) : null}
      <div className="grid gap-1">
        <label className="flex items-start gap-2 text-sm" htmlFor={fields.consent.id}>
          <Checkbox
            {...getInputProps(fields.consent, { type: "checkbox" })}
            key={fields.consent.key}
            required
            className="mt-0.5"
            aria-describedby={fields.consent.errors ? fields.consent.errorId : undefined}
          />
          <span>
            J’ai lu la convention (version {agreement.version}, empreinte{" "}
            <code className="break-all font-mono text-xs">{agreement.documentSha256.slice(0, 16)}…</code>) et je la signe
            électroniquement. Je reconnais que cette signature m’engage comme une signature manuscrite.
          </span>
        </label>
        <FieldError id={fields.consent.errorId} errors={fields.consent.errors} />
      </div>
      {twoFactor ? (
        <div className="grid gap-1">
          <Label htmlFor={fields.code.id}>Code de votre application d’authentification</Label>
          <Input
            {...getInputProps(fields.code, { type: "text" })}
            key={fields.code.key}
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9 ]{6,7}"
            required
            className="max-w-48"
            aria-describedby={fields.code.errors ? fields.code.errorId : undefined}
          />
          <FieldError id={fields.code.errorId} errors={fields.code.errors} />
        </div>
      ) : (
        <div className="grid gap-1">
          <Label htmlFor={fields.password.id}>Votre mot de passe</Label>
          <Input
            {...getInputProps(fields.password, { type: "password" })}
            key={fields.password.key}
            autoComplete="current-password"
            required
            className="max-w-sm"
            aria-describedby={`${fields.password.id}-hint${fields.password.errors ? ` ${fields.password.errorId}` : ""}`}
          />
          <p id={`${fields.password.id}-hint`} className="text-xs text-muted-foreground">
            Saisi à nouveau pour confirmer que c’est bien vous qui signez.
          </p>
          <FieldError id={fields.password.errorId} errors={fields.password.errors} />
        </div>
      )}
      <p className="text-xs text-muted-foreground">
        Sont enregistrés avec votre signature&nbsp;: la date et l’heure, votre adresse IP, votre navigateur et l’empreinte du document
        signé.
      </p>
      <div>
        <Button type="submit" disabled={busy}>
          <FileSignature aria-hidden="true" />
          {busy ? "Signature en cours..." : "Signer la convention"}
        </Button>
      </div>
    </Form>
  );
}

const LEGAL_FORM_SUGGESTIONS = ["SAS", "SASU", "SARL", "EURL", "SA", "SELARL", "SELAS", "SCP", "Entreprise individuelle"];
const CAPACITY_SUGGESTIONS = ["Président", "Présidente", "Directeur général", "Gérant", "Gérante", "Associé", "Associée", "Entrepreneur individuel"];

type FirmFieldsMeta = Record<"company" | "legalForm" | "siren" | "address" | "capacity", FieldMetadata<string>>;

/** One signer's firm: name, legal form, SIREN, address, and the capacity in which they sign. */
function FirmFields({ legend, hint, fields }: { legend: string; hint: string; fields: FirmFieldsMeta }) {
  const hintId = `${fields.company.id}-firm-hint`;
  const row = (key: keyof FirmFieldsMeta, label: string, extra: { list?: string; autoComplete?: string; inputMode?: "numeric" } = {}) => {
    const f = fields[key];
    return (
      <div className="grid gap-1">
        <Label htmlFor={f.id}>{label}</Label>
        <Input
          {...getInputProps(f, { type: "text" })}
          key={f.key}
          required
          {...extra}
          aria-describedby={[hintId, f.errors ? f.errorId : null].filter(Boolean).join(" ")}
        />
        <FieldError id={f.errorId} errors={f.errors} />
      </div>
    );
  };
  return (
    <fieldset className="grid min-w-0 gap-2 rounded-md border p-3">
      <legend className="px-1 text-sm font-medium">{legend}</legend>
      <p id={hintId} className="text-xs text-muted-foreground">
        {hint}
      </p>
      {row("company", "Dénomination", { autoComplete: "off" })}
      {row("legalForm", "Forme juridique", { list: "agreement-legal-forms" })}
      {row("siren", "SIREN", { inputMode: "numeric" })}
      {row("address", "Adresse du siège ou du cabinet")}
      {row("capacity", "Signataire\u00a0: en qualité de", { list: "agreement-capacities" })}
    </fieldset>
  );
}

/** The form of a new version (the first, or one replacing the unsigned current one). */
/** `primary`: false while a version waits for the member's signature (signing is the page's primary action). */
export function AgreementForm({ page, result, primary = true }: { page: AgreementPage; result?: AgreementActionResult; primary?: boolean }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "create";
  const replacing = page.current?.status === "pending";
  const [form, fields] = useForm({
    id: "agreement-create",
    lastResult: result?.intent === "create" ? result.result : undefined,
    defaultValue: page.defaults,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: agreementSchema }),
  });
  const [operation, setOperation] = useState<OperationType | "">((fields.operationType.initialValue as OperationType | undefined) ?? "");
  // Until a type is chosen, the strictest terms (the deed only) are offered.
  const known = OPERATION_TYPES.includes(operation as OperationType) ? (operation as OperationType) : null;
  const dueTerms = allowedDueTerms(known ?? "fonds_de_commerce");
  const hoguet = known === null || OPERATION_CLAUSES[known].hoguet;
  const fromMandates = page.suggested.operationType || page.suggested.sellerAdviser || page.suggested.amountBand;
  const describe = (f: { errors?: string[]; errorId: string }, hint?: string) =>
    [hint, f.errors ? f.errorId : null].filter(Boolean).join(" ") || undefined;
  const formProps = getFormProps(form);
  const previewUrl = agreementPreviewUrl(page.fileId);
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const preview = submitter instanceof HTMLButtonElement && submitter.dataset.preview === "true";
    formProps.onSubmit(event);
    if (!preview || event.defaultPrevented) return;
    // React Router would fetch the PDF as route data: the browser posts it to a new tab instead.
    event.preventDefault();
    const el = event.currentTarget;
    const action = el.getAttribute("action");
    el.setAttribute("action", previewUrl);
    el.setAttribute("target", "_blank");
    el.submit();
    if (action === null) el.removeAttribute("action");
    else el.setAttribute("action", action);
    el.removeAttribute("target");
  };
  // With a version on the table, its terms come first: other conditions are one click away.
  const collapsible = page.current !== null;
  const title = replacing ? (page.current?.createdByMe ? "Proposer une nouvelle version" : "Proposer d’autres conditions") : "Proposer une convention";
  const content = (
      <Form method="post" {...formProps} onSubmit={onSubmit} className="grid gap-4" aria-labelledby="agreement-form-title">
        <input type="hidden" name="intent" value="create" />
        <div className="grid gap-1">
          {collapsible ? null : (
            <h4 id="agreement-form-title" className="text-base font-semibold">
              {title}
            </h4>
          )}
          {replacing ? (
            <p className="text-sm text-muted-foreground">
              La nouvelle version remplace la version {page.current?.version} en attente&nbsp;: celle-ci est annulée, et les signatures
              déjà données sur elle ne valent pas pour la nouvelle.
            </p>
          ) : null}
        </div>
        {result?.intent === "create" && result.error ? (
          <Alert variant="destructive" role="alert">
            <AlertDescription>{result.error}</AlertDescription>
          </Alert>
        ) : null}
        <dl className="grid gap-2 rounded-md bg-muted/50 p-3 text-sm sm:grid-cols-2">
          <div className="min-w-0">
            <dt className="text-muted-foreground">Vous ({page.me.profession ?? "profession non renseignée"})</dt>
            <dd className="break-words font-medium">Titulaire du {page.me.mandateLabel}</dd>
          </div>
          <div className="min-w-0">
            <dt className="text-muted-foreground">
              {page.them.name} ({page.them.profession ?? "profession non renseignée"})
            </dt>
            <dd className="break-words font-medium">Titulaire du {page.them.mandateLabel}</dd>
          </div>
        </dl>

        {fromMandates ? (
          <p id="agreement-suggested-hint" className="text-sm text-muted-foreground" data-testid="agreement-suggested">
            Type d’opération, rôles et montant sont préremplis d’après les deux mandats du dossier&nbsp;: vérifiez-les avant de proposer.
          </p>
        ) : null}

        <div className="grid gap-1">
          <Label htmlFor={fields.operationType.id}>Type d’opération</Label>
          <NativeSelect
            {...getSelectProps(fields.operationType)}
            key={fields.operationType.key}
            required
            onChange={(e) => setOperation(e.currentTarget.value as OperationType | "")}
            aria-describedby={describe(fields.operationType)}
          >
            {fields.operationType.initialValue ? null : <option value="">Choisissez le type d’opération</option>}
            {OPERATION_TYPES.map((t) => (
              <option key={t} value={t}>
                {OPERATION_TYPE_LABELS[t]}
              </option>
            ))}
          </NativeSelect>
          <FieldError id={fields.operationType.errorId} errors={fields.operationType.errors} />
        </div>

        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-medium">Qui détient le mandat du cédant&nbsp;?</legend>
          {(["me", "them"] as const).map((who) => (
            <label key={who} className="flex items-start gap-2 text-sm">
              <input
                type="radio"
                name={fields.sellerAdviser.name}
                value={who}
                required
                defaultChecked={fields.sellerAdviser.initialValue === who}
                className="mt-0.5 h-4 w-4 accent-primary"
                aria-describedby={describe(fields.sellerAdviser)}
              />
              <span>
                {who === "me"
                  ? `Moi\u00a0: je conseille le cédant, ${page.them.name} conseille l’acquéreur`
                  : `${page.them.name}\u00a0: il ou elle conseille le cédant, je conseille l’acquéreur`}
              </span>
            </label>
          ))}
          <FieldError id={fields.sellerAdviser.errorId} errors={fields.sellerAdviser.errors} />
        </fieldset>

        <div className="grid gap-1">
          <Label htmlFor={fields.amountBand.id}>Montant indicatif de l’opération (facultatif)</Label>
          <NativeSelect {...getSelectProps(fields.amountBand)} key={fields.amountBand.key} aria-describedby={describe(fields.amountBand)}>
            <option value="">Non précisé</option>
            {AMOUNT_BANDS.map((band) => (
              <option key={band} value={band}>
                {AMOUNT_BAND_LABELS[band]}
              </option>
            ))}
          </NativeSelect>
          <FieldError id={fields.amountBand.errorId} errors={fields.amountBand.errors} />
        </div>

        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-medium">Répartition des honoraires (total 100&nbsp;%)</legend>
          <div className="grid gap-3 sm:grid-cols-2">
            <div className="grid gap-1">
              <Label htmlFor={fields.myShare.id}>Votre part (%)</Label>
              <Input {...getInputProps(fields.myShare, { type: "number" })} key={fields.myShare.key} min={1} max={99} step={1} inputMode="numeric" aria-describedby={describe(fields.myShare)} />
              <FieldError id={fields.myShare.errorId} errors={fields.myShare.errors} />
            </div>
            <div className="grid gap-1">
              <Label htmlFor={fields.theirShare.id}>Part de votre confrère (%)</Label>
              <Input {...getInputProps(fields.theirShare, { type: "number" })} key={fields.theirShare.key} min={1} max={99} step={1} inputMode="numeric" aria-describedby={describe(fields.theirShare)} />
              <FieldError id={fields.theirShare.errorId} errors={fields.theirShare.errors} />
            </div>
          </div>
        </fieldset>

        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-medium">Qui perçoit les honoraires et reverse la part de l’autre&nbsp;?</legend>
          {(["me", "them"] as const).map((payer) => (
            <label key={payer} className="flex items-start gap-2 text-sm">
              <input
                type="radio"
                name={fields.payer.name}
                value={payer}
                defaultChecked={fields.payer.initialValue === payer}
                className="mt-0.5 h-4 w-4 accent-primary"
                aria-describedby={describe(fields.payer)}
              />
              <span>{payer === "me" ? "Moi\u00a0: je reverse sa part à mon confrère" : `${page.them.name}\u00a0: il ou elle me reverse ma part`}</span>
            </label>
          ))}
          <FieldError id={fields.payer.errorId} errors={fields.payer.errors} />
        </fieldset>

        <div className="grid gap-1">
          <Label htmlFor={fields.dueTerm.id}>Quand la part est-elle due&nbsp;?</Label>
          <NativeSelect {...getSelectProps(fields.dueTerm)} key={`${fields.dueTerm.key}-${operation}`} aria-describedby={describe(fields.dueTerm, "agreement-due-hint")}>
            {dueTerms.map((t) => (
              <option key={t} value={t}>
                {DUE_TERM_LABELS[t]}
              </option>
            ))}
          </NativeSelect>
          <p id="agreement-due-hint" className="text-xs text-muted-foreground" data-testid="agreement-due-hint">
            {hoguet ? HOGUET_NOTE : "La part est due à la signature de l’acte qui réalise l’opération, ou dans les 30 jours qui suivent."}
          </p>
          <FieldError id={fields.dueTerm.errorId} errors={fields.dueTerm.errors} />
        </div>

        <div className="grid gap-4 sm:grid-cols-2">
          <FirmFields
            legend="Votre structure"
            hint="Telle qu’elle figurera dans la convention&nbsp;: complétez ce que votre profil ne contient pas."
            fields={{ company: fields.myCompany, legalForm: fields.myLegalForm, siren: fields.mySiren, address: fields.myAddress, capacity: fields.myCapacity }}
          />
          <FirmFields
            legend={`Structure de ${page.them.name}`}
            hint="Votre confrère la vérifiera avant de signer, et pourra la corriger en proposant d’autres conditions."
            fields={{
              company: fields.theirCompany,
              legalForm: fields.theirLegalForm,
              siren: fields.theirSiren,
              address: fields.theirAddress,
              capacity: fields.theirCapacity,
            }}
          />
        </div>
        <datalist id="agreement-legal-forms">
          {LEGAL_FORM_SUGGESTIONS.map((f) => (
            <option key={f} value={f} />
          ))}
        </datalist>
        <datalist id="agreement-capacities">
          {CAPACITY_SUGGESTIONS.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>

        <div className="grid gap-1">
          <Label htmlFor={fields.clauses.id}>Clauses particulières (facultatif)</Label>
          <Textarea
            {...getTextareaProps(fields.clauses)}
            key={fields.clauses.key}
            maxLength={CLAUSES_MAX_LENGTH}
            rows={5}
            aria-describedby={describe(fields.clauses, "agreement-clauses-hint")}
          />
          <p id="agreement-clauses-hint" className="text-xs text-muted-foreground">
            Diligences de chacun, frais, confidentialité… {CLAUSES_MAX_LENGTH.toLocaleString("fr-FR")} caractères au plus. N’y indiquez pas
            l’identité des clients.
          </p>
          <FieldError id={fields.clauses.errorId} errors={fields.clauses.errors} />
        </div>

        <ProfessionWarnings warnings={page.warnings} />

        <div className="flex flex-wrap gap-2">
          <Button type="submit" variant="outline" data-preview="true" formAction={previewUrl} formMethod="post" formTarget="_blank" formNoValidate>
            <Eye aria-hidden="true" />
            Aperçu du PDF
          </Button>
          <Button type="submit" variant={primary ? "default" : "outline"} disabled={busy}>
            {busy ? "Préparation du PDF..." : replacing ? "Proposer la nouvelle version" : "Proposer la convention"}
          </Button>
        </div>
        <p className="text-xs text-muted-foreground">L’aperçu s’ouvre dans un nouvel onglet, marqué «&nbsp;Projet&nbsp;»&nbsp;: rien n’est proposé ni enregistré.</p>
      </Form>
  );
  if (!collapsible) return <Card className="p-4">{content}</Card>;
  return (
    <details className="rounded-lg border" open={result?.intent === "create"} data-testid="agreement-propose">
      <summary id="agreement-form-title" className="cursor-pointer p-4 font-semibold">
        {title}
      </summary>
      <div className="border-t p-4">{content}</div>
    </details>
  );
}

/** Earlier versions (replaced), newest first. */
export function AgreementHistory({ history }: { history: AgreementView[] }) {
  if (history.length === 0) return null;
  return (
    <section aria-labelledby="agreement-history-title" className="grid gap-2">
      <h4 id="agreement-history-title" className="font-semibold">
        Versions précédentes
      </h4>
      <ul className="divide-y rounded-lg border text-sm" aria-label="Versions précédentes de la convention">
        {history.map((v) => (
          <li key={v.id} className="grid gap-1 p-3">
            <p className="font-medium">
              Version {v.version} · {STATUS_LABELS[v.status]}
              {v.cancelledAt ? (
                <>
                  {" "}
                  le <time dateTime={v.cancelledAt}>{at(v.cancelledAt)}</time>
                </>
              ) : null}
            </p>
            <p className="break-all text-xs text-muted-foreground">
              Empreinte du document&nbsp;: <code className="font-mono">{v.documentSha256}</code>
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
