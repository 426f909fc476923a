import { getFormProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { CheckCircle2, Clock } from "lucide-react";
import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { DismissLink } from "~/components/page";
import { Email } from "~/components/email";
import { FieldError, Label, Textarea } from "~/components/ui/input";
import { formatAdminDate, formatDateTime } from "~/lib/format";
import { badgeVariantForStatus, MEMBERSHIP_LABELS, ONBOARDING_STATUS_LABELS, PAYMENT_STATE_LABELS, PROFILE_STATUS_LABELS } from "../admin-labels";
import { profileDecisionSchema, REASON_MAX } from "../admin.schema";
import type { AdminProfileDetail } from "../profiles-admin.server";
import type { VerificationChecklist } from "../verification-admin.server";
import { DetailOverlay } from "./detail-overlay";
import { VerificationChecklistView } from "./verification-checklist";

/** What the profiles tab's action answers when a decision's form does not parse. */
export type ProfileDecisionActionData = { result: SubmissionResult<string[]> } | undefined;

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 sm:grid-cols-[11rem_1fr] sm:gap-3">
      <dt className="text-sm font-medium text-muted-foreground">{label}</dt>
      <dd className="text-sm whitespace-pre-line break-words">{children}</dd>
    </div>
  );
}

function PaymentLine({ payment }: { payment: AdminProfileDetail["payment"] }) {
  const label = PAYMENT_STATE_LABELS[payment.status] ?? payment.status;
  return <>{payment.paidAt ? `${label} le ${formatAdminDate(payment.paidAt)}` : label}</>;
}

/** One profile in the overlay: what the member declared, the verification checklist and the decisions. */
export function ProfileDetail({ detail, checklist, closeTo, actionData }: { detail: AdminProfileDetail; checklist: VerificationChecklist | null; closeTo: string; actionData: ProfileDecisionActionData }) {
  const d = detail;
  return (
    <DetailOverlay title={`${d.firstName} ${d.lastName}`} description={`${d.company} — ${PROFILE_STATUS_LABELS[d.status]}`} closeTo={closeTo}>
      <dl className="grid gap-3">
        <Field label="Email">
          <Email address={d.email} />
        </Field>
        <Field label="Société">{d.company}</Field>
        <Field label="Profession">{d.professionLabel}</Field>
        <Field label="Collège">{d.collegeLabel}</Field>
        <Field label="LinkedIn">
          {d.linkedinUrl ? (
            <a href={d.linkedinUrl} target="_blank" rel="noopener noreferrer nofollow" className="text-primary underline break-all">
              {d.linkedinUrl}
            </a>
          ) : (
            "Non renseigné"
          )}
        </Field>
        <Field label="Expérience">{d.experienceDescription || "Non renseignée"}</Field>
        <Field label="Opérations récentes">{d.recentOperations || "Non renseignées"}</Field>
        <Field label="Parrains">
          {d.sponsors.length === 0 ? (
            "Aucun parrain indiqué"
          ) : (
            <ul className="grid gap-1">
              {d.sponsors.map((s) => (
                <li key={s.email} className="flex items-start gap-2">
                  {s.confirmedAt ? (
                    <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0 text-success" aria-hidden="true" />
                  ) : (
                    <Clock className="mt-0.5 h-4 w-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                  )}
                  <span className="min-w-0 break-words">
                    {s.name} (<Email address={s.email} />) — {s.confirmedAt ? `confirmée le ${formatAdminDate(s.confirmedAt)}` : "non confirmée"}
                    {s.sharesApplicantDomain ? (
                      <Badge variant="warning" className="ml-2" data-testid="sponsor-same-domain">
                        Même domaine de messagerie que le candidat
                      </Badge>
                    ) : null}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Field>
        <Field label="Charte signée">{d.charterSignedAt ? `le ${formatAdminDate(d.charterSignedAt)}` : "Non signée"}</Field>
        <Field label="Paiement">
          <PaymentLine payment={d.payment} />
        </Field>
        <Field label="Adhésion">{MEMBERSHIP_LABELS[d.membershipType] ?? d.membershipType}</Field>
        <Field label="Étape d’adhésion">{ONBOARDING_STATUS_LABELS[d.onboardingStatus] ?? d.onboardingStatus}</Field>
        <Field label="Inscription">{formatAdminDate(d.createdAt)}</Field>
        <Field label="Statut">
          <Badge variant={badgeVariantForStatus(d.status)}>{PROFILE_STATUS_LABELS[d.status]}</Badge>
        </Field>
        {d.validatedAt ? (
          <Field label="Validé">
            le {formatAdminDate(d.validatedAt)}
            {d.validatedByEmail ? ` par ${d.validatedByEmail}` : ""}
          </Field>
        ) : null}
        {d.status === "rejected" ? <Field label="Motif du rejet">{d.rejectionReason || "Aucun motif indiqué"}</Field> : null}
        {d.suspendedAt ? <Field label="Suspendu depuis">{formatDateTime(d.suspendedAt)}</Field> : null}
      </dl>
      {checklist ? <VerificationChecklistView profileId={d.id} checklist={checklist} editable={d.status === "pending_validation" || d.status === "validated"} /> : null}
      <DecisionForm detail={d} unchecked={checklist?.unchecked.length ?? 0} closeTo={closeTo} actionData={actionData} />
    </DetailOverlay>
  );
}

function DecisionForm({ detail, unchecked, closeTo, actionData }: { detail: AdminProfileDetail; unchecked: number; closeTo: string; actionData: ProfileDecisionActionData }) {
  const navigation = useNavigation();
  const busyIntent = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : null;
  const [form, fields] = useForm({
    id: `profile-decision-${detail.id}`,
    lastResult: actionData?.result,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: profileDecisionSchema }),
  });
  const hasReason = detail.canReject || detail.canSuspend;
  const nothingToDo = !detail.canValidate && !detail.canReject && !detail.canSuspend && !detail.canReinstate;
  const button = (intent: string, label: string, busyLabel: string, variant: "default" | "destructive" | "outline" = "default") => (
    <Button type="submit" name="intent" value={intent} variant={variant} disabled={busyIntent !== null}>
      {busyIntent === intent ? busyLabel : label}
    </Button>
  );
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4 border-t pt-4">
      <input type="hidden" name="profileId" value={detail.id} />
      {form.errors?.length ? (
        <Alert variant="destructive">
          <AlertDescription>{form.errors[0]}</AlertDescription>
        </Alert>
      ) : null}
      {detail.status === "pending_validation" && !detail.canValidate ? (
        <Alert variant="info">
          <AlertDescription>
            Dossier incomplet&nbsp;: la validation sera possible lorsque le candidat aura terminé son adhésion (étape actuelle&nbsp;:{" "}
            {ONBOARDING_STATUS_LABELS[detail.onboardingStatus] ?? detail.onboardingStatus}).
          </AlertDescription>
        </Alert>
      ) : null}
      {hasReason ? (
        <div className="grid gap-2">
          <Label htmlFor={fields.reason.id}>{detail.canReject ? "Motif du rejet (facultatif)" : "Motif de la suspension (facultatif)"}</Label>
          <Textarea
            {...getTextareaProps(fields.reason)}
            key={fields.reason.key}
            rows={3}
            maxLength={REASON_MAX}
            aria-invalid={fields.reason.errors ? true : undefined}
          />
          <p className="text-xs text-muted-foreground">
            {detail.canReject ? "Le motif est communiqué au candidat par e-mail." : "Le motif reste interne (journal d’administration)."}
          </p>
          <FieldError errors={fields.reason.errors} />
        </div>
      ) : null}
      {detail.canValidate && unchecked > 0 ? (
        <div className="grid gap-2">
          <Label htmlFor={fields.validationReason.id}>Motif de la validation malgré {unchecked === 1 ? "une étape non cochée" : `${unchecked} étapes non cochées`}</Label>
          <Textarea
            {...getTextareaProps(fields.validationReason)}
            key={fields.validationReason.key}
            rows={2}
            maxLength={REASON_MAX}
            aria-invalid={fields.validationReason.errors ? true : undefined}
          />
          <p className="text-xs text-muted-foreground">Obligatoire pour valider&nbsp;; il reste interne (journal d’administration).</p>
          <FieldError errors={fields.validationReason.errors} />
        </div>
      ) : null}
      {detail.canSuspend ? (
        <p className="text-sm text-muted-foreground">
          La suspension déconnecte immédiatement le membre, lui ferme l’espace membre et le retire des annuaires.
        </p>
      ) : null}
      {nothingToDo ? <p className="text-sm text-muted-foreground">Aucune action n’est possible sur ce profil.</p> : null}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <DismissLink to={closeTo} label="Fermer" />
        {detail.canReject ? button("reject", "Rejeter", "Rejet...", "destructive") : null}
        {/* « Valider » is the primary action at 5/5 only; before, a validation takes a written reason. */}
        {detail.canValidate ? (unchecked === 0 ? button("validate", "Valider", "Validation...") : button("validate", "Valider malgré les étapes non cochées", "Validation...", "outline")) : null}
        {detail.canSuspend ? button("suspend", "Suspendre", "Suspension...", "destructive") : null}
        {detail.canReinstate ? button("reinstate", "Réintégrer", "Réintégration...") : null}
      </div>
    </Form>
  );
}
