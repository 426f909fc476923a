import { getFormProps, getInputProps, getSelectProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect } from "react";
import { CheckCircle2, Circle, Clock } from "lucide-react";
import { data, Form, Link, redirect, useNavigation, useRevalidator, useRouteLoaderData } from "react-router";
import { ADMIN_TWO_FACTOR_ENROL_PATH, getProfileByUserId, getSessionUser, isAdmin, requireUser } from "~/auth/session.server";
import { TextField } from "~/components/form-field";
import { PageContainer } from "~/components/page";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Checkbox, FieldError, Label, NativeSelect, Textarea } from "~/components/ui/input";
import { COLLEGES, PROFESSIONS } from "~/db/reference";
import { type ClosedMembership, MembershipClosed } from "~/features/admin/components/membership-closed";
import { getPaymentState, PaymentError, startFoundingCheckout } from "~/features/membership/membership.server";
import { CharterText } from "~/features/onboarding/components/charter-text";
import {
  charterSchema,
  detailsSchema,
  ONBOARDING_MESSAGES,
  profileCreationSchema,
  sponsorsSchema,
} from "~/features/onboarding/onboarding.schema";
import {
  chooseFreeStart,
  getOnboardingState,
  getVerificationContext,
  saveDetails,
  saveProfileIdentity,
  saveSponsors,
  saveVerification,
  signCharter,
} from "~/features/onboarding/onboarding.server";
import { parisToday } from "~/features/mandates/mandate-rules";
import { VerificationFields } from "~/features/trust/components/verification-fields";
import { INSURANCE_MAX_MB, VERIFICATION_MESSAGES, verificationSchema } from "~/features/trust/verification.schema";
import { readMultipartWithLimit, UploadError } from "~/lib/storage/upload-body.server";
import { formatDate, placesLeftLabel } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/onboarding";
import { readForm } from "~/lib/form.server";
import { atEdge, expectedMessage, expectedStatus } from "~/lib/errors/http";
import { FOUNDING_SUMMARY, FOUNDING_TERMS } from "~/features/membership/offers";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Adhésion"), { name: "robots", content: "noindex" }];

export const loader = atEdge(async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  // An e-mail confirmation link that failed comes back here with ?error=…: signed out, the
  // sign-in page says what happened (and signing in sends a fresh link).
  const linkError = url.searchParams.get("error");
  if (linkError && !(await getSessionUser(request))) {
    throw redirect(`/auth?lien=${linkError === "TOKEN_EXPIRED" ? "expire" : "invalide"}`);
  }
  const user = await requireUser(request);
  // An administrator without a member profile (npm run admin:create) has nothing to join: the
  // two-factor enrolment first, then the back office.
  if (!(await getProfileByUserId(user.id)) && (await isAdmin(user.id))) {
    throw redirect(user.twoFactorEnabled ? "/admin" : ADMIN_TWO_FACTOR_ENROL_PATH);
  }
  const payment = url.searchParams.get("payment");
  if (payment === "success") {
    throw await redirectWithToast("/onboarding?paiement=confirmation", {
      type: "success",
      title: "Paiement réussi !",
      description: "Votre adhésion sera activée après validation de votre profil.",
    });
  }
  if (payment === "canceled") {
    throw await redirectWithToast("/onboarding", {
      type: "info",
      title: "Paiement annulé",
      description: "Vous pouvez reprendre le processus de paiement à tout moment.",
    });
  }
  const state = await getOnboardingState(user, url.searchParams.get("etape"));
  // Suspended or rejected by the team: a clear message instead of the steps (and no redirect
  // loop with /dashboard, whose guard sends a suspended member back here).
  const status = state.profile?.profileStatus;
  const closed: ClosedMembership | null =
    status === "suspended"
      ? { status, reason: null }
      : status === "rejected"
        ? { status, reason: (await getProfileByUserId(user.id))?.rejectionReason ?? null }
        : null;
  if (!closed && (state.current === "done" || status === "validated")) throw redirect("/dashboard");
  // Back from the checkout before the payment provider's webhook: the payment is being confirmed.
  const confirming =
    url.searchParams.get("paiement") === "confirmation" &&
    state.step === "payment" &&
    state.profileId !== null &&
    (await getPaymentState(state.profileId)).status === "pending";
  return { ...state, email: user.email, closed, paymentConfirming: confirming, today: parisToday() };
});

type ActionResult = { intent: string; result: SubmissionResult<string[]> };

function failure(intent: string, submission: { reply: (o?: { formErrors?: string[] }) => SubmissionResult<string[]> }, message?: string, status = 400) {
  return data({ intent, result: submission.reply(message ? { formErrors: [message] } : undefined) } satisfies ActionResult, { status });
}

function commandMessage(error: unknown): string {
  return expectedMessage(error, ONBOARDING_MESSAGES.fallback);
}

export const action = atEdge(async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const existing = await getProfileByUserId(user.id);
  if (existing?.profileStatus === "validated") throw redirect("/dashboard");
  // The verification step carries the insurance certificate: a multipart body, size-limited
  // before it is read.
  const multipart = /^multipart\/form-data;/i.test(request.headers.get("content-type") ?? "");
  let formData: FormData;
  try {
    formData = multipart ? await readMultipartWithLimit(request, INSURANCE_MAX_MB) : await readForm(request);
  } catch (error) {
    if (!(error instanceof UploadError)) throw error;
    const message = error.code === "too-large" ? VERIFICATION_MESSAGES.tooLarge : error.description;
    return data({ intent: "verification", result: { status: "error", error: { "": [message] } } } satisfies ActionResult, { status: error.status });
  }
  const intent = String(formData.get("intent") ?? "");
  const run = async (fn: () => Promise<unknown>, submission: Parameters<typeof failure>[1]) => {
    try {
      await fn();
    } catch (error) {
      if (expectedStatus(error) === null) logger.error({ err: error, intent }, "onboarding step failed");
      return failure(intent, submission, commandMessage(error), expectedStatus(error) ?? 409);
    }
    return redirect("/onboarding");
  };
  switch (intent) {
    case "profile": {
      const submission = parseWithZod(formData, { schema: profileCreationSchema });
      if (submission.status !== "success") return failure(intent, submission);
      return run(() => saveProfileIdentity(user, submission.value), submission);
    }
    case "charter": {
      const submission = parseWithZod(formData, { schema: charterSchema });
      if (submission.status !== "success") return failure(intent, submission);
      return run(() => signCharter(user), submission);
    }
    case "details": {
      const submission = parseWithZod(formData, { schema: detailsSchema });
      if (submission.status !== "success") return failure(intent, submission);
      return run(() => saveDetails(user, submission.value), submission);
    }
    case "verification": {
      const context = await getVerificationContext(user);
      const submission = parseWithZod(formData, { schema: verificationSchema(context?.profession ?? "", parisToday()) });
      if (submission.status !== "success") return failure(intent, submission);
      const file = formData.get("certificate");
      const upload = file instanceof File && file.size > 0 ? { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) } : null;
      return run(() => saveVerification(user, submission.value, upload), submission);
    }
    case "sponsors": {
      const submission = parseWithZod(formData, { schema: sponsorsSchema(user.email) });
      if (submission.status !== "success") return failure(intent, submission);
      return run(() => saveSponsors(user, submission.value), submission);
    }
    case "free": {
      const submission = parseWithZod(formData, { schema: charterSchema.partial() });
      return run(() => chooseFreeStart(user), submission);
    }
    case "founding": {
      const submission = parseWithZod(formData, { schema: charterSchema.partial() });
      try {
        const { url } = await startFoundingCheckout(user);
        return redirect(url);
      } catch (error) {
        const message =
          error instanceof PaymentError && error.code === "no-url"
            ? "Aucune URL de paiement reçue"
            : error instanceof PaymentError
              ? "Une erreur est survenue lors du paiement"
              : commandMessage(error);
        return failure(intent, submission, message, error instanceof PaymentError ? 502 : 409);
      }
    }
    default:
      throw data({ message: "Action inconnue" }, { status: 400 });
  }
});

type LoaderData = Route.ComponentProps["loaderData"];

function FormAlert({ errors, id }: { errors?: string[]; id?: string }) {
  if (!errors?.length) return null;
  return (
    <Alert variant="destructive" id={id}>
      <AlertDescription>{errors[0]}</AlertDescription>
    </Alert>
  );
}

function useStepForm<S extends Parameters<typeof parseWithZod>[1]["schema"]>(intent: string, schema: S, actionData: ActionResult | undefined, defaultValue?: Record<string, string>) {
  return useForm({
    id: `onboarding-${intent}`,
    lastResult: actionData?.intent === intent ? actionData.result : undefined,
    defaultValue,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}

function SubmitButton({ label, intent }: { label: string; intent: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  return (
    // Long labels ("Devenir membre fondateur — 250 €/an") wrap inside their card on a phone.
    <Button type="submit" name="intent" value={intent} disabled={busy} size="lg" className="whitespace-normal">
      {busy ? "Enregistrement..." : label}
    </Button>
  );
}

function ProfileStep({ state, actionData }: { state: LoaderData; actionData?: ActionResult }) {
  const p = state.profile;
  const [form, fields] = useStepForm("profile", profileCreationSchema, actionData, p ? { firstName: p.firstName, lastName: p.lastName, company: p.company, profession: p.profession, college: p.college } : undefined);
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-5">
      <FormAlert errors={form.errors} id={form.errorId} />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label="Prénom" inputProps={{ ...getInputProps(fields.firstName, { type: "text" }), autoComplete: "given-name", key: fields.firstName.key }} errors={fields.firstName.errors} />
        <TextField label="Nom" inputProps={{ ...getInputProps(fields.lastName, { type: "text" }), autoComplete: "family-name", key: fields.lastName.key }} errors={fields.lastName.errors} />
      </div>
      <TextField label="Société / cabinet" inputProps={{ ...getInputProps(fields.company, { type: "text" }), autoComplete: "organization", key: fields.company.key }} errors={fields.company.errors} />
      <div className="grid gap-2">
        <Label htmlFor={fields.profession.id}>Profession</Label>
        <NativeSelect {...getSelectProps(fields.profession)} key={fields.profession.key} aria-invalid={fields.profession.errors ? true : undefined}>
          <option value="">Sélectionnez votre profession</option>
          {PROFESSIONS.map((pr) => (
            <option key={pr.code} value={pr.code}>
              {pr.label}
            </option>
          ))}
        </NativeSelect>
        <FieldError errors={fields.profession.errors} />
      </div>
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">Collège</legend>
        {COLLEGES.map((c) => (
          <label key={c.code} className="flex items-center gap-3 rounded-md border p-3 text-sm has-[:checked]:border-primary has-[:checked]:bg-blue-50">
            <input type="radio" name={fields.college.name} value={c.code} defaultChecked={fields.college.initialValue === c.code} className="h-4 w-4 accent-primary" />
            {c.label}
          </label>
        ))}
        <FieldError errors={fields.college.errors} />
      </fieldset>
      <div>
        <SubmitButton label={state.revisiting ? "Enregistrer les modifications" : "Continuer"} intent="profile" />
      </div>
    </Form>
  );
}

function CharterStep({ actionData }: { actionData?: ActionResult }) {
  const root = useRouteLoaderData("root") as { appName?: string } | undefined;
  const [form, fields] = useStepForm("charter", charterSchema, actionData);
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-5">
      <FormAlert errors={form.errors} id={form.errorId} />
      <CharterText appName={root?.appName ?? "Réseau Transmission"} />
      <div className="grid gap-2">
        <label className="flex items-start gap-3 text-sm">
          <Checkbox name={fields.accept.name} id={fields.accept.id} className="mt-0.5" aria-invalid={fields.accept.errors ? true : undefined} />
          <span>J’ai lu et j’accepte la charte d’engagement des membres.</span>
        </label>
        <FieldError errors={fields.accept.errors} />
      </div>
      <div>
        <SubmitButton label="Signer la charte et continuer" intent="charter" />
      </div>
    </Form>
  );
}

function DetailsStep({ state, actionData }: { state: LoaderData; actionData?: ActionResult }) {
  const p = state.profile;
  const [form, fields] = useStepForm("details", detailsSchema, actionData, p ? { experienceDescription: p.experienceDescription, recentOperations: p.recentOperations, linkedinUrl: p.linkedinUrl } : undefined);
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-5">
      <FormAlert errors={form.errors} id={form.errorId} />
      <div className="grid gap-2">
        <Label htmlFor={fields.experienceDescription.id}>Votre expérience</Label>
        <Textarea {...getTextareaProps(fields.experienceDescription)} key={fields.experienceDescription.key} rows={5} aria-invalid={fields.experienceDescription.errors ? true : undefined} />
        <p className="text-xs text-muted-foreground">Votre parcours, vos spécialités et le type d’opérations que vous accompagnez.</p>
        <FieldError errors={fields.experienceDescription.errors} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={fields.recentOperations.id}>Opérations récentes</Label>
        <Textarea {...getTextareaProps(fields.recentOperations)} key={fields.recentOperations.key} rows={5} aria-invalid={fields.recentOperations.errors ? true : undefined} />
        <p className="text-xs text-muted-foreground">Décrivez 2 à 3 opérations récentes sans nommer les entreprises concernées (secteur, taille, type d’opération, année).</p>
        <FieldError errors={fields.recentOperations.errors} />
      </div>
      <TextField
        label="Profil LinkedIn (facultatif)"
        hint="Par exemple&nbsp;: https://www.linkedin.com/in/votre-nom"
        inputProps={{ ...getInputProps(fields.linkedinUrl, { type: "url" }), key: fields.linkedinUrl.key }}
        errors={fields.linkedinUrl.errors}
      />
      <div>
        <SubmitButton label={state.revisiting ? "Enregistrer les modifications" : "Continuer"} intent="details" />
      </div>
    </Form>
  );
}

function VerificationStep({ state, actionData }: { state: LoaderData; actionData?: ActionResult }) {
  const e = state.evidence;
  const profession = state.profile?.profession ?? "";
  const [form, fields] = useStepForm(
    "verification",
    verificationSchema(profession, state.today),
    actionData,
    e
      ? {
          siren: e.sirenTyped,
          registrationValue: e.registrationValue,
          registrationYear: e.registrationYear ? String(e.registrationYear) : "",
          insurer: e.insurer,
          policyNumber: e.policyNumber,
          insuranceEndsOn: e.insuranceEndsOn,
        }
      : undefined,
  );
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="grid grid-cols-1 gap-5">
      <p className="text-sm text-muted-foreground">
        Ces justificatifs servent uniquement à la vérification de votre profil par l’équipe&nbsp;: ils ne sont jamais montrés aux
        autres membres ni au public.
      </p>
      <FormAlert errors={form.errors} id={form.errorId} />
      <VerificationFields fields={fields} profession={profession} currentFileName={e?.insuranceFileName ?? null} />
      <div>
        <SubmitButton label={state.revisiting ? "Enregistrer les modifications" : "Continuer"} intent="verification" />
      </div>
    </Form>
  );
}

function SponsorsStep({ state, actionData }: { state: LoaderData; actionData?: ActionResult }) {
  const s = state.sponsors;
  const [form, fields] = useForm({
    id: "onboarding-sponsors",
    lastResult: actionData?.intent === "sponsors" ? actionData.result : undefined,
    defaultValue: {
      sponsor1Name: s[0]?.name ?? "",
      sponsor1Email: s[0]?.email ?? "",
      sponsor2Name: s[1]?.name ?? "",
      sponsor2Email: s[1]?.email ?? "",
    },
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: sponsorsSchema(state.email) }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="grid grid-cols-1 gap-5">
      <p className="text-sm text-muted-foreground">
        Indiquez deux confrères qui connaissent votre pratique professionnelle. Chacun recevra un e-mail pour confirmer sa
        recommandation.
      </p>
      <FormAlert errors={[...(form.errors ?? []), ...Object.values(form.allErrors).flat()].slice(0, 1)} id={form.errorId} />
      {[1, 2].map((n) => {
        const name = n === 1 ? fields.sponsor1Name : fields.sponsor2Name;
        const email = n === 1 ? fields.sponsor1Email : fields.sponsor2Email;
        return (
          <fieldset key={n} className="grid min-w-0 grid-cols-1 gap-4 rounded-md border p-4 sm:grid-cols-2">
            <legend className="px-1 text-sm font-semibold">Parrain {n}</legend>
            <TextField label="Nom complet" inputProps={{ ...getInputProps(name, { type: "text" }), key: name.key }} />
            <TextField label="Email" inputProps={{ ...getInputProps(email, { type: "email" }), key: email.key }} />
          </fieldset>
        );
      })}
      <div>
        <SubmitButton label={state.revisiting ? "Enregistrer et renvoyer les invitations" : "Envoyer les demandes de recommandation"} intent="sponsors" />
      </div>
    </Form>
  );
}

/** Back from the checkout, the webhook not in yet: the page checks again every few seconds. */
function PaymentConfirming() {
  const revalidator = useRevalidator();
  useEffect(() => {
    const timer = setInterval(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, 3000);
    return () => clearInterval(timer);
  }, [revalidator]);
  return (
    <Card role="status" data-testid="payment-confirming">
      <meta httpEquiv="refresh" content="5" />
      <CardHeader>
        <CardTitle>Paiement en cours de confirmation</CardTitle>
        <CardDescription>
          Votre paiement a bien été transmis. Nous attendons la confirmation de notre prestataire de paiement&nbsp;: cette page se
          met à jour d’elle-même, en général en quelques secondes.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Link to="/onboarding?paiement=confirmation" className="text-sm text-primary underline">
          Vérifier maintenant
        </Link>
      </CardContent>
    </Card>
  );
}

function PaymentStep({ state, actionData }: { state: LoaderData; actionData?: ActionResult }) {
  const errors = actionData && (actionData.intent === "free" || actionData.intent === "founding") ? actionData.result.error?.[""] : undefined;
  if (state.paymentConfirming) return <PaymentConfirming />;
  return (
    <div className="grid gap-5">
      <FormAlert errors={errors ?? undefined} />
      <div className="grid grid-cols-1 gap-5 md:grid-cols-2">
        <Card className="flex min-w-0 flex-col">
          <CardHeader>
            <CardTitle>Démarrage gratuit</CardTitle>
            <CardDescription>0&nbsp;€ — accès limité</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-1 flex-col gap-4">
            <ul className="list-disc space-y-1 pl-5 text-sm">
              <li>Profil de base dans l’annuaire</li>
              <li>3 mandats par semestre</li>
              <li>Messagerie et statistiques réservées aux membres Premium</li>
            </ul>
            <Form method="post" className="mt-auto">
              <SubmitButton label="Commencer gratuitement" intent="free" />
            </Form>
          </CardContent>
        </Card>
        <Card className="flex min-w-0 flex-col border-amber-300 ring-1 ring-amber-200">
          <CardHeader>
            <CardTitle>Membre fondateur</CardTitle>
            <CardDescription>{FOUNDING_SUMMARY}</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-1 flex-col gap-4">
            <ul className="list-disc space-y-1 pl-5 text-sm">
              <li>Badge fondateur à vie et mise en avant dans l’annuaire</li>
              <li>Mandats illimités, messagerie interne, statistiques</li>
              <li>Présentation enrichie, logo et transactions certifiées</li>
            </ul>
            <p className="text-sm text-muted-foreground">{placesLeftLabel(state.places, ["place de membre fondateur", "places de membre fondateur"])}.</p>
            <Form method="post" className="mt-auto">
              <SubmitButton label={`Devenir membre fondateur — ${FOUNDING_TERMS.price}`} intent="founding" />
            </Form>
          </CardContent>
        </Card>
      </div>
      <p className="text-sm text-muted-foreground">
        {FOUNDING_TERMS.payment} {FOUNDING_TERMS.guarantee} {FOUNDING_TERMS.vat[0].toUpperCase() + FOUNDING_TERMS.vat.slice(1)}. Votre adhésion est activée après validation de votre profil par l’équipe.
      </p>
    </div>
  );
}

function WaitingStep({ state }: { state: LoaderData }) {
  return (
    <div className="grid grid-cols-1 gap-6">
      <Alert variant="info">
        <AlertDescription>
          Votre dossier est complet. Votre profil sera validé sous 5 jours ouvrés après la confirmation de vos parrains et la
          vérification par notre équipe.
        </AlertDescription>
      </Alert>
      <section>
        <h3 className="mb-3 font-semibold">Prochaines étapes</h3>
        <ol className="list-decimal space-y-1 pl-5 text-sm">
          <li>Vos deux parrains confirment leur recommandation depuis l’e-mail reçu.</li>
          <li>Notre équipe vérifie votre profil et vos références.</li>
          <li>Vous recevez un e-mail de bienvenue et accédez à votre espace membre.</li>
        </ol>
      </section>
      <section>
        <h3 className="mb-3 font-semibold">Vos parrains</h3>
        <ul className="grid grid-cols-1 gap-2">
          {state.sponsors.map((s) => (
            <li key={s.email} className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border p-3 text-sm">
              {s.confirmedAt ? <CheckCircle2 className="h-5 w-5 shrink-0 text-success" aria-hidden="true" /> : <Clock className="h-5 w-5 shrink-0 text-muted-foreground" aria-hidden="true" />}
              <span className="min-w-0 flex-1 break-words">
                <span className="font-medium">{s.name}</span> — {s.email}
              </span>
              <span className={s.confirmedAt ? "text-success" : "text-muted-foreground"}>
                {s.confirmedAt ? `Confirmée le ${formatDate(s.confirmedAt)}` : "En attente de confirmation"}
              </span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

const STEPS = [
  { key: "profile", label: "Profil", param: "profil" },
  { key: "charter", label: "Charte", param: null },
  { key: "details", label: "Expérience", param: "details" },
  { key: "verification", label: "Justificatifs", param: "verification" },
  { key: "recommendations", label: "Parrainage", param: "recommandations" },
  { key: "payment", label: "Adhésion", param: null },
  { key: "waiting", label: "Validation", param: null },
] as const;

const TITLES: Record<string, { title: string; description: string }> = {
  profile: { title: "Créez votre profil", description: "Ces informations apparaîtront sur votre fiche professionnelle." },
  charter: { title: "Charte d’engagement", description: "Lisez et acceptez la charte qui lie les membres du réseau." },
  details: { title: "Votre expérience", description: "Aidez l’équipe et vos futurs confrères à connaître votre pratique." },
  verification: { title: "Vos justificatifs professionnels", description: "SIREN ou SIRET, inscription professionnelle et attestation d’assurance\u00a0: l’équipe les vérifie avant de valider votre profil." },
  recommendations: { title: "Vos deux parrains", description: "Le réseau fonctionne par cooptation\u00a0: deux confrères doivent vous recommander." },
  payment: { title: "Choisissez votre adhésion", description: "Démarrez gratuitement ou rejoignez les membres fondateurs." },
  waiting: { title: "Dossier en cours de validation", description: "Merci\u00a0! Voici où en est votre adhésion." },
};

export default function Onboarding({ loaderData, actionData }: Route.ComponentProps) {
  const state = loaderData;
  if (state.closed) return <MembershipClosed closed={state.closed} />;
  const current = STEPS.findIndex((s) => s.key === state.current);
  const heading = TITLES[state.step] ?? TITLES.profile;
  const ad = actionData as ActionResult | undefined;
  return (
    <PageContainer className="max-w-3xl">
      <header className="mb-8 grid gap-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h1 className="text-3xl font-bold text-primary">Rejoindre le réseau</h1>
          <p className="text-sm font-medium text-accent">{placesLeftLabel(state.places, ["place de membre fondateur", "places de membre fondateur"])}</p>
        </div>
        <div className="flex items-center gap-3">
          <div className="h-2 flex-1 overflow-hidden rounded-full bg-muted" role="progressbar" aria-label="Progression de l’adhésion" aria-valuemin={0} aria-valuemax={100} aria-valuenow={state.progress}>
            <div className="h-full bg-primary transition-all" style={{ width: `${state.progress}%` }} />
          </div>
          <span className="w-12 text-right text-sm font-semibold">{state.progress}&nbsp;%</span>
        </div>
        <ol className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground" aria-label="Étapes">
          {STEPS.map((s, i) => {
            const done = i < current;
            const editable = done && s.param && current <= STEPS.findIndex((x) => x.key === "payment");
            return (
              <li key={s.key} className="flex items-center gap-1" aria-current={s.key === state.step ? "step" : undefined}>
                {done ? <CheckCircle2 className="h-3.5 w-3.5 text-success" aria-hidden="true" /> : <Circle className="h-3.5 w-3.5" aria-hidden="true" />}
                {editable ? (
                  <Link to={`/onboarding?etape=${s.param}`} className="underline hover:text-foreground" aria-label={`Modifier l’étape ${s.label}`}>
                    {s.label}
                  </Link>
                ) : (
                  <span className={s.key === state.step ? "font-semibold text-foreground" : undefined}>{s.label}</span>
                )}
              </li>
            );
          })}
        </ol>
      </header>
      <Card>
        <CardHeader>
          <CardTitle>{heading.title}</CardTitle>
          <CardDescription>{heading.description}</CardDescription>
          {state.revisiting ? (
            <p className="text-sm">
              <Link to="/onboarding" className="text-primary underline">
                Revenir à l’étape en cours sans modifier
              </Link>
            </p>
          ) : null}
        </CardHeader>
        <CardContent>
          {state.step === "profile" ? <ProfileStep state={state} actionData={ad} /> : null}
          {state.step === "charter" ? <CharterStep actionData={ad} /> : null}
          {state.step === "details" ? <DetailsStep state={state} actionData={ad} /> : null}
          {state.step === "verification" ? <VerificationStep state={state} actionData={ad} /> : null}
          {state.step === "recommendations" ? <SponsorsStep state={state} actionData={ad} /> : null}
          {state.step === "payment" ? <PaymentStep state={state} actionData={ad} /> : null}
          {state.step === "waiting" ? <WaitingStep state={state} /> : null}
        </CardContent>
      </Card>
    </PageContainer>
  );
}
