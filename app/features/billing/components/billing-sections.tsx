// /parametres/facturation: the plan and its renewal, the payments with their invoices and credit
// notes, and the billing details form.
import { getFormProps, getInputProps, getTextareaProps } from "@conform-to/react";
import { Download, ExternalLink } from "lucide-react";
import { Form, Link } from "react-router";
import { TextField } from "~/components/form-field";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { FieldError, Label, Textarea } from "~/components/ui/input";
import { FormErrors, IntentField, SettingsSection, type SettingsActionData, SubmitButton, useSettingsForm } from "~/features/account/components/settings-form";
import { FOUNDING_TERMS } from "~/features/membership/offers";
import { formatDate } from "~/lib/dates";
import { BILLING_INTENT, billingDetailsSchema } from "../billing.schema";
import type { BillingView } from "../billing.server";
import { centsLabel, INVOICE_KIND_LABELS } from "../invoice-rules";

export function PlanSection({ view }: { view: BillingView }) {
  return (
    <SettingsSection id="offre" title="Mon offre">
      <dl className="grid gap-2 text-sm sm:grid-cols-[12rem_1fr]">
        <dt className="text-muted-foreground">Offre</dt>
        <dd className="font-medium">{view.plan.name}</dd>
        <dt className="text-muted-foreground">Échéance</dt>
        <dd>{view.renewalOn ? `${formatDate(view.renewalOn)} (sans renouvellement automatique)` : "Aucune adhésion payante en cours"}</dd>
      </dl>
      {view.plan.id === "freemium" && view.payments.length === 0 ? (
        <p className="text-sm">
          <Link to="/premium" className="font-medium text-primary underline underline-offset-2">
            Découvrir l’offre membre fondateur
          </Link>{" "}
          — {FOUNDING_TERMS.price}.
        </p>
      ) : null}
    </SettingsSection>
  );
}

export function PaymentsSection({ view }: { view: BillingView }) {
  return (
    <SettingsSection
      id="paiements"
      title="Paiements et factures"
      description="Chaque paiement donne lieu à une facture, et chaque remboursement à un avoir. Elles sont conservées dix ans, même après la suppression de votre compte."
    >
      {view.payments.length === 0 ? (
        <p className="text-sm">Aucun paiement pour le moment.</p>
      ) : (
        <ul className="grid gap-4">
          {view.payments.map((p) => (
            <li key={p.id} className="grid gap-2 rounded-md border p-3 text-sm">
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-medium">{centsLabel(p.amountCents)} TTC</span>
                <span className="text-muted-foreground">payé le {formatDate(p.paidAt)}</span>
                {p.status === "refunded" ? <Badge variant="secondary">Remboursé</Badge> : null}
              </div>
              <ul className="flex flex-wrap gap-3">
                {p.documents.map((d) => (
                  <li key={d.id}>
                    <a href={`/parametres/facturation/${d.id}`} download className="inline-flex items-center gap-1 font-medium text-primary underline underline-offset-2">
                      <Download className="size-4" aria-hidden />
                      {INVOICE_KIND_LABELS[d.kind]} {d.number} (PDF)
                    </a>
                  </li>
                ))}
                {p.receiptUrl ? (
                  <li>
                    <a href={p.receiptUrl} target="_blank" rel="noreferrer noopener" className="inline-flex items-center gap-1 text-primary underline underline-offset-2">
                      <ExternalLink className="size-4" aria-hidden />
                      Reçu Stripe
                    </a>
                  </li>
                ) : null}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </SettingsSection>
  );
}

export function BillingDetailsSection({ view, actionData }: { view: BillingView; actionData?: SettingsActionData }) {
  const [form, fields] = useSettingsForm(BILLING_INTENT, billingDetailsSchema, actionData);
  return (
    <SettingsSection id="coordonnees" title="Coordonnées de facturation" description="La raison sociale, l’adresse et le SIREN imprimés sur vos prochaines factures.">
      {view.addressMissing ? (
        <Alert>
          <AlertDescription>Votre adresse de facturation manque&#x202F;: complétez-la pour qu’elle figure sur vos factures.</AlertDescription>
        </Alert>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="grid max-w-xl gap-4">
        <IntentField intent={BILLING_INTENT} />
        <FormErrors errors={form.errors} id={form.errorId} />
        <TextField
          label="Raison sociale"
          inputProps={{ ...getInputProps(fields.company, { type: "text" }), key: fields.company.key, defaultValue: view.details.company, autoComplete: "organization" }}
          errors={fields.company.errors}
        />
        <div className="grid gap-2">
          <Label htmlFor={fields.address.id}>Adresse de facturation</Label>
          <Textarea
            {...getTextareaProps(fields.address)}
            key={fields.address.key}
            defaultValue={view.details.address}
            rows={3}
            autoComplete="street-address"
            aria-invalid={fields.address.errors ? true : undefined}
            aria-describedby={fields.address.errors ? `${fields.address.id}-error` : undefined}
          />
          <FieldError id={`${fields.address.id}-error`} errors={fields.address.errors} />
        </div>
        <TextField
          label="SIREN (facultatif)"
          inputProps={{ ...getInputProps(fields.siren, { type: "text" }), key: fields.siren.key, defaultValue: view.details.siren, inputMode: "numeric" }}
          errors={fields.siren.errors}
        />
        <div>
          <SubmitButton intent={BILLING_INTENT} label="Enregistrer" busyLabel="Enregistrement..." />
        </div>
      </Form>
    </SettingsSection>
  );
}
