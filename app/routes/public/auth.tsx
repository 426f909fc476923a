import { getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { signIn, signUp } from "~/auth/account.server";
import { MESSAGES, signInSchema, signUpSchema } from "~/auth/auth.schema";
import { requireAnonymous } from "~/auth/session.server";
import { twoFactorSignInSchema } from "~/auth/two-factor.schema";
import { getPendingTwoFactorUserId, verifyTwoFactorSignIn } from "~/auth/two-factor.server";
import { CredentialField, FormError, SubmitButton, TextField } from "~/components/form-field";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/auth";
import { readForm } from "~/lib/form.server";

type Mode = "connexion" | "inscription";
const modeOf = (url: URL): Mode => (url.searchParams.get("mode") === "inscription" ? "inscription" : "connexion");

export const meta: Route.MetaFunction = ({ matches, location }) =>
  pageMeta(matches, new URLSearchParams(location.search).get("mode") === "inscription" ? "Inscription" : "Connexion");

type Step = "password" | "2fa";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request);
  const url = new URL(request.url);
  if (url.searchParams.get("etape") === "2fa") {
    // The second step only exists while a password sign-in left a pending challenge.
    if (!(await getPendingTwoFactorUserId(request))) throw redirect("/auth");
    const method = url.searchParams.get("methode") === "secours" ? ("backup" as const) : ("totp" as const);
    return { mode: "connexion" as Mode, step: "2fa" as Step, method };
  }
  const link = url.searchParams.get("lien");
  return {
    mode: modeOf(url),
    step: "password" as Step,
    method: "totp" as const,
    // An e-mail confirmation link that failed (onboarding.tsx sends the visitor here).
    link: link === "expire" || link === "invalide" ? (link as keyof typeof LINK_ERRORS) : null,
  };
}

const LINK_ERRORS = {
  expire: "Ce lien de confirmation a expiré (il est valable 24 heures).",
  invalide: "Ce lien de confirmation n’est pas valide ou a déjà servi.",
} as const;

export async function action({ request }: Route.ActionArgs) {
  await requireAnonymous(request);
  const formData = await readForm(request);
  if (formData.get("intent") === "two-factor") {
    const submission = parseWithZod(formData, { schema: twoFactorSignInSchema });
    if (submission.status !== "success") {
      return data({ intent: "two-factor" as const, result: submission.reply({ hideFields: ["code"] }), signedUp: false }, { status: 400 });
    }
    const outcome = await verifyTwoFactorSignIn(request, submission.value);
    // The challenge is over (expired, too many codes): start again from the password.
    if (!outcome.ok && outcome.restart) throw await redirectWithToast("/auth", { type: "error", title: outcome.message });
    if (!outcome.ok) {
      return data(
        { intent: "two-factor" as const, result: submission.reply({ formErrors: [outcome.message], hideFields: ["code"] }), signedUp: false },
        { status: outcome.status },
      );
    }
    return redirect("/onboarding", { headers: outcome.headers });
  }
  if (formData.get("intent") === "sign-up") {
    const submission = parseWithZod(formData, { schema: signUpSchema });
    if (submission.status !== "success") {
      return data({ intent: "sign-up" as const, result: submission.reply({ hideFields: ["password", "confirmPassword"] }), signedUp: false }, { status: 400 });
    }
    const outcome = await signUp(request, submission.value);
    if (!outcome.ok) {
      return data(
        { intent: "sign-up" as const, result: submission.reply({ formErrors: [outcome.message], hideFields: ["password", "confirmPassword"] }), signedUp: false },
        { status: outcome.status },
      );
    }
    return { intent: "sign-up" as const, result: submission.reply({ resetForm: true }), signedUp: true };
  }
  const submission = parseWithZod(formData, { schema: signInSchema });
  if (submission.status !== "success") {
    return data({ intent: "sign-in" as const, result: submission.reply({ hideFields: ["password"] }), signedUp: false }, { status: 400 });
  }
  const outcome = await signIn(request, submission.value);
  if (outcome.ok === false) {
    return data(
      { intent: "sign-in" as const, result: submission.reply({ formErrors: [outcome.message], hideFields: ["password"] }), signedUp: false },
      { status: outcome.status },
    );
  }
  // Two-factor members finish on the verification step; everyone else starts at /onboarding,
  // which sends validated members on to /dashboard.
  return redirect(outcome.ok === "two-factor" ? "/auth?mode=connexion&etape=2fa" : "/onboarding", { headers: outcome.headers });
}

function SignInForm({ lastResult }: { lastResult?: SubmissionResult<string[]> | null }) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "sign-in",
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signInSchema }),
  });
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "sign-in";
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4">
      <input type="hidden" name="intent" value="sign-in" />
      <FormError form={form} />
      <CredentialField field={fields.email} label="Email" type="email" autoComplete="email" />
      <CredentialField field={fields.password} label="Mot de passe" type="password" autoComplete="current-password" />
      <div className="text-right text-sm">
        <Link to="/auth/mot-de-passe-oublie" className="text-primary hover:underline">
          Mot de passe oublié&nbsp;?
        </Link>
      </div>
      <SubmitButton busy={busy} busyLabel="Connexion...">
        Se connecter
      </SubmitButton>
    </Form>
  );
}

function TwoFactorForm({ method, lastResult }: { method: "totp" | "backup"; lastResult?: SubmissionResult<string[]> | null }) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: `two-factor-${method}`,
    lastResult,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: twoFactorSignInSchema }),
  });
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "two-factor";
  const totp = method === "totp";
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4">
      <input type="hidden" name="intent" value="two-factor" />
      <input type="hidden" name="method" value={method} />
      <p className="text-sm text-muted-foreground">
        {totp
          ? "Votre compte est protégé par la double authentification. Saisissez le code à 6 chiffres affiché par votre application d’authentification."
          : "Saisissez l’un des codes de secours que vous avez conservés lors de l’activation. Chaque code ne peut servir qu’une fois."}
      </p>
      <FormError form={form} />
      <TextField
        label={totp ? "Code de vérification" : "Code de secours"}
        hint={totp ? "Le code change toutes les 30 secondes." : "Par exemple\u00a0: Ab3dE-f7hIj"}
        inputProps={{
          ...getInputProps(fields.code, { type: "text" }),
          key: fields.code.key,
          autoComplete: "one-time-code",
          inputMode: totp ? "numeric" : "text",
          autoFocus: true,
          spellCheck: false,
          autoCapitalize: "off",
        }}
        errors={fields.code.errors}
      />
      <SubmitButton busy={busy} busyLabel="Vérification...">
        Vérifier
      </SubmitButton>
      <p className="text-center text-sm">
        <Link
          to={totp ? "/auth?mode=connexion&etape=2fa&methode=secours" : "/auth?mode=connexion&etape=2fa"}
          className="text-primary hover:underline"
        >
          {totp ? "Utiliser un code de secours" : "Utiliser l’application d’authentification"}
        </Link>
      </p>
    </Form>
  );
}

function SignUpForm({ lastResult, signedUp }: { lastResult?: SubmissionResult<string[]> | null; signedUp: boolean }) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "sign-up",
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signUpSchema }),
  });
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "sign-up";
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4">
      <input type="hidden" name="intent" value="sign-up" />
      {signedUp ? (
        <Alert variant="success">
          <AlertDescription>{MESSAGES.signUpSuccess}</AlertDescription>
        </Alert>
      ) : null}
      <FormError form={form} />
      <CredentialField field={fields.email} label="Email" type="email" autoComplete="email" />
      <CredentialField field={fields.password} label="Mot de passe" hint="6 caractères minimum." type="password" autoComplete="new-password" />
      <CredentialField field={fields.confirmPassword} label="Confirmer le mot de passe" type="password" autoComplete="new-password" />
      <SubmitButton busy={busy} busyLabel="Inscription...">
        Créer mon compte
      </SubmitButton>
    </Form>
  );
}

export default function AuthPage({ loaderData, actionData }: Route.ComponentProps) {
  const mode = loaderData.mode;
  const signUpMode = mode === "inscription";
  if (loaderData.step === "2fa") {
    return (
      <div className="mx-auto w-full max-w-md px-4 py-12">
        <Card>
          <CardHeader>
            <h1 className="text-xl font-semibold leading-tight">Vérification en deux étapes</h1>
            <CardDescription>Une dernière étape pour accéder à votre espace membre.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-6">
            <TwoFactorForm
              key={loaderData.method}
              method={loaderData.method}
              lastResult={actionData?.intent === "two-factor" ? actionData.result : undefined}
            />
            <p className="text-center text-sm text-muted-foreground">
              <Link to="/auth" className="font-medium text-primary hover:underline">
                Revenir à la connexion
              </Link>
            </p>
          </CardContent>
        </Card>
      </div>
    );
  }
  return (
    <div className="mx-auto w-full max-w-md px-4 py-12">
      <Card>
        <CardHeader>
          <h1 className="text-xl font-semibold leading-tight">{signUpMode ? "Inscription" : "Connexion"}</h1>
          {"link" in loaderData && loaderData.link ? (
            <Alert variant="info" className="mt-2">
              <AlertDescription>
                {LINK_ERRORS[loaderData.link]} Connectez-vous avec votre e-mail et votre mot de passe&nbsp;: si votre adresse n’est
                pas encore confirmée, un nouveau lien vous est envoyé aussitôt.
              </AlertDescription>
            </Alert>
          ) : null}
          <CardDescription>
            {signUpMode
              ? "Créez votre compte pour rejoindre le réseau des professionnels de la transmission."
              : "Accédez à votre espace membre."}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6">
          {signUpMode ? (
            <SignUpForm
              lastResult={actionData?.intent === "sign-up" ? actionData.result : undefined}
              signedUp={actionData?.intent === "sign-up" && actionData.signedUp}
            />
          ) : (
            <SignInForm lastResult={actionData?.intent === "sign-in" ? actionData.result : undefined} />
          )}
          <p className="text-center text-sm text-muted-foreground">
            {signUpMode ? "Déjà membre\u00a0? " : "Pas encore de compte\u00a0? "}
            <Link to={signUpMode ? "/auth" : "/auth?mode=inscription"} className="font-medium text-primary hover:underline">
              {signUpMode ? "Connexion" : "Inscription"}
            </Link>
          </p>
        </CardContent>
      </Card>
    </div>
  );
}
