import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Link, redirect } from "react-router";
import { ADMIN_TWO_FACTOR_ENROL_PATH, getProfileByUserId, getSessionUser, isAdmin, requireUser } from "~/auth/session.server";
import { PageContainer } from "~/components/page";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { type ClosedMembership, MembershipClosed } from "~/features/admin/components/membership-closed";
import { PaymentStep } from "~/features/membership/components/payment-step";
import { getPaymentState, PaymentError, startFoundingCheckout } from "~/features/membership/membership.server";
import { OnboardingHeader, STEP_TITLES } from "~/features/onboarding/components/onboarding-progress";
import { CharterStep, DetailsStep, ProfileStep, SponsorsStep, VerificationStep, WaitingStep } from "~/features/onboarding/components/onboarding-steps";
import type { OnboardingActionResult as ActionResult } from "~/features/onboarding/components/step-form";
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
import { INSURANCE_MAX_MB, VERIFICATION_MESSAGES, verificationSchema } from "~/features/trust/verification.schema";
import { readMultipartWithLimit, UploadError } from "~/lib/storage/upload-body.server";
import { logger } from "~/lib/logger.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/onboarding";
import { readForm } from "~/lib/form.server";
import { atEdge, expectedMessage, expectedStatus } from "~/lib/errors/http";

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

export default function Onboarding({ loaderData, actionData }: Route.ComponentProps) {
  const state = loaderData;
  if (state.closed) return <MembershipClosed closed={state.closed} />;
  const heading = STEP_TITLES[state.step] ?? STEP_TITLES.profile;
  const ad = actionData as ActionResult | undefined;
  return (
    <PageContainer className="max-w-3xl">
      <OnboardingHeader state={state} />
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