import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, useNavigation } from "react-router";
import { requestPasswordReset } from "~/auth/account.server";
import { forgotPasswordSchema, MESSAGES } from "~/auth/auth.schema";
import { requireAnonymous } from "~/auth/session.server";
import { CredentialField, FormError, SubmitButton } from "~/components/form-field";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/forgot-password";
import { readForm } from "~/lib/form.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Mot de passe oublié");

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request);
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  await requireAnonymous(request);
  const submission = parseWithZod(await readForm(request), { schema: forgotPasswordSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), sent: false }, { status: 400 });
  const outcome = await requestPasswordReset(request, submission.value.email);
  if (!outcome.ok) {
    return data({ result: submission.reply({ formErrors: [outcome.message] }), sent: false }, { status: outcome.status });
  }
  return { result: submission.reply({ resetForm: true }), sent: true };
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: forgotPasswordSchema }),
  });
  const busy = navigation.state !== "idle";
  return (
    <div className="mx-auto w-full max-w-md px-4 py-12">
      <Card>
        <CardHeader>
          <h1 className="text-xl font-semibold leading-tight">Mot de passe oublié&nbsp;?</h1>
          <CardDescription>Indiquez l’adresse e-mail de votre compte&nbsp;: nous vous enverrons un lien pour le réinitialiser.</CardDescription>
        </CardHeader>
        <CardContent>
          <Form method="post" {...getFormProps(form)} className="grid gap-4">
            {actionData?.sent ? (
              <Alert variant="success">
                <AlertDescription>{MESSAGES.resetRequested}</AlertDescription>
              </Alert>
            ) : null}
            <FormError form={form} />
            <CredentialField field={fields.email} label="Email" type="email" autoComplete="email" />
            <SubmitButton busy={busy} busyLabel="Envoi en cours...">
              Recevoir le lien
            </SubmitButton>
            <Link to="/auth" className="text-center text-sm text-primary hover:underline">
              Retour à la connexion
            </Link>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}
