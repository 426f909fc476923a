import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, useNavigation } from "react-router";
import { resetPassword } from "~/auth/account.server";
import { MESSAGES, resetPasswordSchema } from "~/auth/auth.schema";
import { requireAnonymous } from "~/auth/session.server";
import { CredentialField, FormError, SubmitButton } from "~/components/form-field";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/reset-password";
import { readForm } from "~/lib/form.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Nouveau mot de passe");

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request);
  const url = new URL(request.url);
  // better-auth redirects here with ?token=… (or ?error=INVALID_TOKEN for a bad link).
  const token = url.searchParams.get("token");
  return { token: token && !url.searchParams.get("error") ? token : null };
}

export async function action({ request }: Route.ActionArgs) {
  await requireAnonymous(request);
  const submission = parseWithZod(await readForm(request), { schema: resetPasswordSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password", "confirmPassword"] }) }, { status: 400 });
  }
  const outcome = await resetPassword(request, submission.value);
  if (!outcome.ok) {
    return data(
      { result: submission.reply({ formErrors: [outcome.message], hideFields: ["password", "confirmPassword"] }) },
      { status: outcome.status },
    );
  }
  return redirectWithToast("/auth", { type: "success", title: MESSAGES.resetDone });
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: resetPasswordSchema }),
  });
  const busy = navigation.state !== "idle";
  return (
    <div className="mx-auto w-full max-w-md px-4 py-12">
      <Card>
        <CardHeader>
          <h1 className="text-xl font-semibold leading-tight">Choisir un nouveau mot de passe</h1>
          <CardDescription>6 caractères minimum.</CardDescription>
        </CardHeader>
        <CardContent>
          {loaderData.token ? (
            <Form method="post" {...getFormProps(form)} className="grid gap-4">
              <input type="hidden" name="token" value={loaderData.token} />
              <FormError form={form} />
              <CredentialField field={fields.password} label="Nouveau mot de passe" type="password" autoComplete="new-password" />
              <CredentialField field={fields.confirmPassword} label="Confirmer le mot de passe" type="password" autoComplete="new-password" />
              <SubmitButton busy={busy} busyLabel="Enregistrement...">
                Enregistrer le mot de passe
              </SubmitButton>
            </Form>
          ) : (
            <div className="grid gap-4">
              <Alert variant="destructive">
                <AlertDescription>{MESSAGES.resetLinkInvalid}</AlertDescription>
              </Alert>
              <Button asChild variant="outline">
                <Link to="/auth/mot-de-passe-oublie">Demander un nouveau lien</Link>
              </Button>
            </div>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
