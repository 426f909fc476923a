// /parametres/facturation: the member's plan and renewal date, payments with their
// invoices and credit notes (PDF), and the billing details printed on the next invoices.
import { parseWithZod } from "@conform-to/zod/v4";
import { data, isRouteErrorResponse } from "react-router";
import { getRequestProfile, requireUser } from "~/auth/session.server";
import { Alert, AlertDescription } from "~/components/ui/alert";
import type { SettingsActionData } from "~/features/account/components/settings-form";
import { BILLING_INTENT, BILLING_MESSAGES, billingDetailsSchema } from "~/features/billing/billing.schema";
import { getBillingView, saveBillingDetails } from "~/features/billing/billing.server";
import { BillingDetailsSection, PaymentsSection, PlanSection } from "~/features/billing/components/billing-sections";
import { readForm } from "~/lib/form.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/billing";
import { atEdge } from "~/lib/errors/http";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Facturation"), { name: "robots", content: "noindex" }];

async function requireBillingActor(request: Request) {
  const user = await requireUser(request);
  const profile = await getRequestProfile(user.id);
  // Billing hangs from the member's profile (an applicant pays at the onboarding's last step).
  if (!profile) throw data({ message: "Aucune adhésion n’est associée à ce compte." }, { status: 404 });
  return { profileId: profile.id };
}

export const loader = atEdge(async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireBillingActor(request);
  return { view: await getBillingView(actor) };
});

export const action = atEdge(async function action({ request }: Route.ActionArgs) {
  const actor = await requireBillingActor(request);
  const formData = await readForm(request);
  const intent = String(formData.get("intent") ?? "");
  if (intent !== BILLING_INTENT) throw data({ message: "Action inconnue" }, { status: 400 });
  const submission = parseWithZod(formData, { schema: billingDetailsSchema });
  if (submission.status !== "success") return data({ intent, result: submission.reply() } satisfies SettingsActionData, { status: 400 });
  await saveBillingDetails(actor, submission.value);
  return redirectWithToast("/parametres/facturation", { title: BILLING_MESSAGES.saved, description: BILLING_MESSAGES.savedDescription });
});

export default function Billing({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="grid grid-cols-1 gap-6">
      <PlanSection view={loaderData.view} />
      <PaymentsSection view={loaderData.view} />
      <BillingDetailsSection view={loaderData.view} actionData={actionData as SettingsActionData | undefined} />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const body = isRouteErrorResponse(error) ? (error.data as { message?: unknown } | undefined) : undefined;
  const message =
    isRouteErrorResponse(error) && error.status < 500 && typeof body?.message === "string" ? body.message : "Nous n’avons pas pu afficher la facturation. Veuillez réessayer.";
  return (
    <Alert variant="destructive">
      <AlertDescription>{message}</AlertDescription>
    </Alert>
  );
}
