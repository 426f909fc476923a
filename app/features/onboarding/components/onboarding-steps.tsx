import { Email } from "~/components/email";
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { CheckCircle2, Clock } from "lucide-react";
import { Form, useRouteLoaderData } from "react-router";
import { TextField } from "~/components/form-field";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Checkbox, FieldError, Label, NativeSelect, Textarea } from "~/components/ui/input";
import { COLLEGES, PROFESSIONS } from "~/db/reference";
import { VerificationFields } from "~/features/trust/components/verification-fields";
import { verificationSchema } from "~/features/trust/verification.schema";
import { formatDate } from "~/lib/format";
import { charterSchema, detailsSchema, profileCreationSchema, sponsorsSchema } from "../onboarding.schema";
import { CharterText } from "./charter-text";
import { FormAlert, type OnboardingActionResult, type OnboardingView, SubmitButton, useStepForm } from "./step-form";

export function ProfileStep({ state, actionData }: { state: OnboardingView; actionData?: OnboardingActionResult }) {
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

export function CharterStep({ actionData }: { actionData?: OnboardingActionResult }) {
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

export function DetailsStep({ state, actionData }: { state: OnboardingView; actionData?: OnboardingActionResult }) {
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

export function VerificationStep({ state, actionData }: { state: OnboardingView; actionData?: OnboardingActionResult }) {
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

export function SponsorsStep({ state, actionData }: { state: OnboardingView; actionData?: OnboardingActionResult }) {
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

export function WaitingStep({ state }: { state: OnboardingView }) {
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
              {/* A basis so that the status wraps below rather than squeezing the name letter by letter. */}
              <span className="min-w-0 flex-1 basis-48">
                <span className="font-medium">{s.name}</span> — <Email address={s.email} />
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
