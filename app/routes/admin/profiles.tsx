import { getFormProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { CheckCircle2, Clock, Search } from "lucide-react";
import { type ReactNode, useEffect, useRef } from "react";
import { data, Form, Link, useNavigation, useSubmit } from "react-router";
import { toast } from "~/lib/toast";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { FieldError, Input, Label, NativeSelect, Textarea } from "~/components/ui/input";
import { requireAdminAccess } from "~/features/admin/admin-access.server";
import { AdminActionError, isAdminActionError } from "~/features/admin/admin-errors";
import { VerificationChecklistView } from "~/features/admin/components/verification-checklist";
import { setVerificationCheck, type VerificationChecklist } from "~/features/admin/verification-admin.server";
import {
  badgeVariantForStatus,
  MEMBERSHIP_LABELS,
  ONBOARDING_STATUS_LABELS,
  PAYMENT_STATE_LABELS,
  PROFILE_STATUS_LABELS,
} from "~/features/admin/admin-labels";
import {
  ADMIN_MESSAGES,
  parseProfileListQuery,
  PROFILE_STATUS_PARAMS,
  profileDecisionSchema,
  type ProfileListQuery,
  queryString,
  REASON_MAX,
} from "~/features/admin/admin.schema";
import { DetailOverlay } from "~/features/admin/components/detail-overlay";
import { Pagination } from "~/components/pagination";
import { ScrollTable } from "~/features/admin/components/scroll-table";
import { StatTiles } from "~/features/admin/components/stat-tiles";
import {
  type AdminProfileDetail,
  getProfileCounts,
  getProfileReview,
  listProfilesForAdmin,
  rejectProfile,
  reinstateMember,
  suspendMember,
  validateProfile,
} from "~/features/admin/profiles-admin.server";
import { countLabel, formatAdminDate, formatDateTime } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/profiles";
import { readForm } from "~/lib/form.server";
import { INSURANCE_FLAG_LABELS } from "~/features/trust/verification-rules";
import { atEdge } from "~/lib/errors/http";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Administration — Profils"), { name: "robots", content: "noindex" }];

function listHref(query: Pick<ProfileListQuery, "q" | "statut" | "page">, extra: { profil?: string } = {}) {
  return `/admin${queryString({ q: query.q, statut: query.statut, page: query.page, ...extra })}`;
}

export const loader = atEdge(async function loader({ request, context }: Route.LoaderArgs) {
  const actor = await requireAdminAccess(request);
  const query = parseProfileListQuery(new URL(request.url).searchParams);
  try {
    // The list's total without a search is one of the tiles' counts: read once, used by both.
    const countsRead = getProfileCounts();
    const [counts, list, review] = await Promise.all([
      countsRead,
      listProfilesForAdmin(query, countsRead),
      query.profil ? getProfileReview(query.profil, actor) : Promise.resolve(null),
    ]);
    return { query, counts, ...list, detail: review?.detail ?? null, checklist: review?.checklist ?? null, failed: false };
  } catch (error) {
    logger.error({ err: error, requestId: context.requestId }, "admin profiles load failed");
    return { query, counts: null, rows: [], total: 0, page: 1, pageCount: 1, detail: null, checklist: null, failed: true };
  }
});

const SUCCESS: Record<string, string> = {
  validate: ADMIN_MESSAGES.profileValidated,
  reject: ADMIN_MESSAGES.profileRejected,
  suspend: ADMIN_MESSAGES.memberSuspended,
  reinstate: ADMIN_MESSAGES.memberReinstated,
};

export const action = atEdge(async function action({ request, context }: Route.ActionArgs) {
  const actor = await requireAdminAccess(request);
  const query = parseProfileListQuery(new URL(request.url).searchParams);
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: profileDecisionSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply() }, { status: 400 });
  }
  const { profileId, intent, reason, validationReason, step } = submission.value;
  if (intent === "check" || intent === "uncheck") {
    try {
      if (!step) throw new AdminActionError(409, "Étape de vérification inconnue");
      await setVerificationCheck(actor, profileId, step, intent === "check");
    } catch (error) {
      if (!isAdminActionError(error)) logger.error({ err: error, requestId: context.requestId, intent, profileId }, "verification check failed");
      return redirectWithToast(listHref(query, { profil: profileId }), {
        type: "error",
        title: ADMIN_MESSAGES.profileUpdateFailed,
        description: isAdminActionError(error) ? error.message : undefined,
      });
    }
    return redirectWithToast(listHref(query, { profil: profileId }), { type: "success", title: intent === "check" ? "Étape cochée" : "Étape décochée" });
  }
  try {
    if (intent === "validate") await validateProfile(actor, profileId, { reason: validationReason });
    else if (intent === "reject") await rejectProfile(actor, profileId, reason);
    else if (intent === "suspend") await suspendMember(actor, profileId, reason);
    else await reinstateMember(actor, profileId);
  } catch (error) {
    if (!isAdminActionError(error)) logger.error({ err: error, requestId: context.requestId, intent, profileId }, "admin profile decision failed");
    return redirectWithToast(listHref(query, { profil: profileId }), {
      type: "error",
      title: ADMIN_MESSAGES.profileUpdateFailed,
      description: isAdminActionError(error) ? error.message : undefined,
    });
  }
  return redirectWithToast(listHref(query), { type: "success", title: SUCCESS[intent] });
});

type ActionData = { result: SubmissionResult<string[]> } | undefined;

export default function ProfilesTab({ loaderData, actionData }: Route.ComponentProps) {
  const { query, counts, rows, total, page, pageCount, detail, checklist, failed } = loaderData;
  const navigation = useNavigation();
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const loading = navigation.state === "loading" && navigation.location.pathname === "/admin";

  useEffect(() => {
    if (failed) toast.error(ADMIN_MESSAGES.profilesLoadFailed);
  }, [failed]);

  return (
    <section aria-labelledby="tab-title" className="grid grid-cols-1 gap-6">
      <h2 id="tab-title" className="text-xl font-semibold">
        Profils
      </h2>
      {failed ? (
        <Alert variant="destructive">
          <AlertDescription>{ADMIN_MESSAGES.profilesLoadFailed}</AlertDescription>
        </Alert>
      ) : null}
      {counts ? (
        <StatTiles
          items={[
            { label: "Total", value: counts.total },
            { label: "En attente", value: counts.pending },
            { label: "Validés", value: counts.validated },
            { label: "Rejetés", value: counts.rejected },
            { label: "Suspendus", value: counts.suspended },
          ]}
        />
      ) : null}

      <Form ref={formRef} method="get" action="/admin" role="search" aria-label="Rechercher un profil" className="grid gap-4 rounded-lg border bg-muted/50 p-4 md:grid-cols-[1fr_14rem_auto]">
        <div className="grid gap-2">
          <Label htmlFor="q">Recherche</Label>
          <Input id="q" name="q" type="search" defaultValue={query.q} key={query.q} placeholder="Nom, société, e-mail…" maxLength={100} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="statut">Statut</Label>
          <NativeSelect
            id="statut"
            name="statut"
            defaultValue={query.statut ?? ""}
            key={`s-${query.statut}`}
            onChange={() => formRef.current && submit(formRef.current, { replace: true, preventScrollReset: true })}
          >
            <option value="">Tous les statuts</option>
            {Object.entries(PROFILE_STATUS_PARAMS).map(([param, status]) => (
              <option key={param} value={param}>
                {PROFILE_STATUS_LABELS[status]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <Button type="submit">
            <Search aria-hidden="true" />
            Rechercher
          </Button>
          <Button asChild variant="outline">
            <Link to="/admin">Réinitialiser</Link>
          </Button>
        </div>
      </Form>

      <div>
        <p className="font-medium" aria-live="polite">
          {loading ? "Chargement..." : countLabel(total, "profil", "profils")}
        </p>
        {rows.length === 0 ? (
          <p className="mt-4 rounded-lg border p-8 text-center text-muted-foreground">
            {query.q || query.statut ? "Aucun profil ne correspond à ces critères." : "Aucun profil pour le moment."}
          </p>
        ) : (
          <ScrollTable label="Liste des profils">
            <thead className="bg-muted/60 text-xs uppercase text-muted-foreground">
              <tr>
                <th scope="col" className="px-3 py-2">Nom</th>
                <th scope="col" className="px-3 py-2">Société</th>
                <th scope="col" className="px-3 py-2">Profession</th>
                <th scope="col" className="px-3 py-2">Collège</th>
                <th scope="col" className="px-3 py-2">Statut</th>
                <th scope="col" className="px-3 py-2">Date</th>
                <th scope="col" className="px-3 py-2">Actions</th>
              </tr>
            </thead>
            <tbody className={loading ? "opacity-60" : undefined}>
              {rows.map((r) => (
                <tr key={r.id} className="border-t">
                  <td className="px-3 py-2 font-medium">
                    {r.firstName} {r.lastName}
                  </td>
                  <td className="px-3 py-2">{r.company}</td>
                  <td className="px-3 py-2">{r.professionLabel}</td>
                  <td className="px-3 py-2">{r.collegeLabel}</td>
                  <td className="px-3 py-2">
                    <Badge variant={badgeVariantForStatus(r.status)}>{PROFILE_STATUS_LABELS[r.status]}</Badge>
                    {r.insurance ? (
                      <Badge variant={r.insurance === "to_renew" ? "destructive" : "warning"} className="mt-1 block w-fit" data-testid="insurance-flag">
                        {INSURANCE_FLAG_LABELS[r.insurance]}
                      </Badge>
                    ) : null}
                  </td>
                  <td className="px-3 py-2 whitespace-nowrap">{formatAdminDate(r.createdAt)}</td>
                  <td className="px-3 py-2">
                    <Link
                      to={listHref({ ...query, page }, { profil: r.id })}
                      preventScrollReset
                      className="text-primary underline"
                      aria-label={`Voir le profil de ${r.firstName} ${r.lastName}`}
                    >
                      {r.status === "pending_validation" ? "Examiner" : "Voir"}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        )}
        <Pagination page={page} pageCount={pageCount} href={(p) => listHref({ ...query, page: p })} />
      </div>

      {query.profil ? (
        detail ? (
          <ProfileDetail detail={detail} checklist={checklist} closeTo={listHref({ ...query, page })} actionData={actionData as ActionData} />
        ) : failed ? null : (
          <Alert variant="destructive">
            <AlertDescription>Profil introuvable.</AlertDescription>
          </Alert>
        )
      ) : null}
    </section>
  );
}

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

function ProfileDetail({ detail, checklist, closeTo, actionData }: { detail: AdminProfileDetail; checklist: VerificationChecklist | null; closeTo: string; actionData: ActionData }) {
  const d = detail;
  return (
    <DetailOverlay title={`${d.firstName} ${d.lastName}`} description={`${d.company} — ${PROFILE_STATUS_LABELS[d.status]}`} closeTo={closeTo}>
      <dl className="grid gap-3">
        <Field label="Email">{d.email}</Field>
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
                    {s.name} ({s.email}) — {s.confirmedAt ? `confirmée le ${formatAdminDate(s.confirmedAt)}` : "non confirmée"}
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

function DecisionForm({ detail, unchecked, closeTo, actionData }: { detail: AdminProfileDetail; unchecked: number; closeTo: string; actionData: ActionData }) {
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
        <Button asChild variant="outline">
          <Link to={closeTo} preventScrollReset>
            Fermer
          </Link>
        </Button>
        {detail.canReject ? button("reject", "Rejeter", "Rejet...", "destructive") : null}
        {detail.canValidate ? button("validate", "Valider", "Validation...") : null}
        {detail.canSuspend ? button("suspend", "Suspendre", "Suspension...", "destructive") : null}
        {detail.canReinstate ? button("reinstate", "Réintégrer", "Réintégration...") : null}
      </div>
    </Form>
  );
}
