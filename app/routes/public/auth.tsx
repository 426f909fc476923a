import { getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { signIn, signUp } from "~/auth/account.server";
import { MESSAGES, signInSchema, signUpSchema } from "~/auth/auth.schema";
import { requireAnonymous } from "~/auth/session.server";
import { TextField } from "~/components/form-field";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/auth";

type Mode = "connexion" | "inscription";
const modeOf = (url: URL): Mode => (url.searchParams.get("mode") === "inscription" ? "inscription" : "connexion");

export const meta: Route.MetaFunction = ({ matches, location }) =>
  pageMeta(matches, new URLSearchParams(location.search).get("mode") === "inscription" ? "Inscription" : "Connexion");

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request);
  return { mode: modeOf(new URL(request.url)) };
}

export async function action({ request }: Route.ActionArgs) {
  await requireAnonymous(request);
  const formData = await request.formData();
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
      {form.errors?.length ? (
        <Alert variant="destructive" id={form.errorId}>
          <AlertDescription>{form.errors[0]}</AlertDescription>
        </Alert>
      ) : null}
      <TextField
        label="Email"
        inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email", key: fields.email.key }}
        errors={fields.email.errors}
      />
      <TextField
        label="Mot de passe"
        inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "current-password", key: fields.password.key }}
        errors={fields.password.errors}
      />
      <div className="text-right text-sm">
        <Link to="/auth/mot-de-passe-oublie" className="text-primary hover:underline">
          Mot de passe oublié ?
        </Link>
      </div>
      <Button type="submit" disabled={busy}>
        {busy ? "Connexion..." : "Se connecter"}
      </Button>
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
      {form.errors?.length ? (
        <Alert variant="destructive" id={form.errorId}>
          <AlertDescription>{form.errors[0]}</AlertDescription>
        </Alert>
      ) : null}
      <TextField
        label="Email"
        inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email", key: fields.email.key }}
        errors={fields.email.errors}
      />
      <TextField
        label="Mot de passe"
        hint="6 caractères minimum."
        inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "new-password", key: fields.password.key }}
        errors={fields.password.errors}
      />
      <TextField
        label="Confirmer le mot de passe"
        inputProps={{ ...getInputProps(fields.confirmPassword, { type: "password" }), autoComplete: "new-password", key: fields.confirmPassword.key }}
        errors={fields.confirmPassword.errors}
      />
      <Button type="submit" disabled={busy}>
        {busy ? "Inscription..." : "Créer mon compte"}
      </Button>
    </Form>
  );
}

export default function AuthPage({ loaderData, actionData }: Route.ComponentProps) {
  const mode = loaderData.mode;
  const signUpMode = mode === "inscription";
  return (
    <div className="mx-auto w-full max-w-md px-4 py-12">
      <Card>
        <CardHeader>
          <h1 className="text-xl font-semibold leading-tight">{signUpMode ? "Inscription" : "Connexion"}</h1>
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
            {signUpMode ? "Déjà membre ? " : "Pas encore de compte ? "}
            <Link to={signUpMode ? "/auth" : "/auth?mode=inscription"} className="font-medium text-primary hover:underline">
              {signUpMode ? "Connexion" : "Inscription"}
            </Link>
          </p>
        </CardContent>
      </Card>
    </div>
  );
}
