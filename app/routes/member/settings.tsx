import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect } from "react";
import { data, isRouteErrorResponse, Link, redirect } from "react-router";
import { getProfileByUserId, getRequestIsAdmin, getRequestProfile, requireUser } from "~/auth/session.server";
import { BackLink, PageContainer, PageTitle } from "~/components/page";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { deleteAccount } from "~/features/account/account-deletion.server";
import {
  ACCOUNT_MESSAGES,
  changePasswordSchema,
  deleteAccountSchema,
  disableTwoFactorSchema,
  enableTwoFactorSchema,
  notificationPreferencesSchema,
  regenerateBackupCodesSchema,
  revokeSessionSchema,
  verifyTwoFactorSchema,
} from "~/features/account/account.schema";
import {
  changePassword,
  type CommandOutcome,
  getCurrentSessionId,
  getNotificationPreferences,
  listActiveSessions,
  revokeOtherSessions,
  revokeSession,
  updateNotificationPreferences,
} from "~/features/account/account.server";
import { DataSection } from "~/features/account/components/data-section";
import { NotificationsSection } from "~/features/account/components/notifications-section";
import { PasswordSection } from "~/features/account/components/password-section";
import { SessionsSection } from "~/features/account/components/sessions-section";
import type { SettingsActionData } from "~/features/account/components/settings-form";
import { TwoFactorSection } from "~/features/account/components/two-factor-section";
import {
  cancelTwoFactorEnrolment,
  confirmTwoFactorEnrolment,
  disableTwoFactor,
  getTwoFactorState,
  regenerateBackupCodes,
  startTwoFactorEnrolment,
  takeRevealedBackupCodes,
} from "~/features/account/two-factor.server";
import { RATINGS_CONSENT_INTENT, RatingsConsentSection } from "~/features/trust/components/ratings-consent-section";
import { ratingsConsentSchema } from "~/features/trust/ratings.schema";
import { setRatingsConsent } from "~/features/trust/ratings.server";
import { pageMeta } from "~/lib/meta";
import { createToastHeaders, redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/settings";
import { readForm } from "~/lib/form.server";
import { atEdge } from "~/lib/errors/http";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, "Paramètres du compte"),
  { name: "robots", content: "noindex" },
];

const SECTIONS = [
  { id: "mot-de-passe", label: "Mot de passe" },
  { id: "securite", label: "Double authentification" },
  { id: "sessions", label: "Sessions" },
  { id: "notifications", label: "Notifications" },
  { id: "evaluations", label: "Évaluations" },
  { id: "donnees", label: "Mes données" },
] as const;

const here = (section: string) => `/parametres?section=${section}`;

export const loader = atEdge(async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request, { guests: true });
  const url = new URL(request.url);
  const [currentSessionId, admin, notifications, profile, twoFactor, revealed] = await Promise.all([
    getCurrentSessionId(request),
    getRequestIsAdmin(user.id),
    getNotificationPreferences(user),
    getRequestProfile(user.id),
    getTwoFactorState(user),
    takeRevealedBackupCodes(request, user),
  ]);
  const sessions = await listActiveSessions(user, currentSessionId);
  const back =
    profile?.profileStatus === "validated"
      ? { to: "/dashboard", label: "Retour à l’espace membre" }
      : admin
        ? { to: "/admin", label: "Retour à l’administration" }
        : { to: "/onboarding", label: "Retour à mon adhésion" };
  const section = url.searchParams.get("section");
  return data(
    {
      email: user.email,
      back,
      section: SECTIONS.some((s) => s.id === section) ? section : null,
      adminRequiresTwoFactor: admin && !user.twoFactorEnabled,
      twoFactor,
      sessions,
      notifications: notifications?.preferences ?? null,
      hasProfile: Boolean(profile),
      ratingsConsent: profile ? profile.showRatingsPublicly : null,
      /** Right after activation only: shown once, the pass is then used up. */
      backupCodes: revealed.backupCodes,
    },
    revealed.headers ? { headers: revealed.headers } : undefined,
  );
});

type Failure = Extract<CommandOutcome, { ok: false }>;

export const action = atEdge(async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request, { guests: true });
  const formData = await readForm(request);
  const intent = String(formData.get("intent") ?? "");
  const passwordFields = ["password", "currentPassword", "newPassword", "confirmPassword", "code"];

  const fail = (
    submission: { reply: (o?: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[] }) => SettingsActionData["result"] },
    outcome?: Failure,
  ) =>
    data(
      {
        intent,
        result: submission.reply({
          ...(outcome?.field ? { fieldErrors: { [outcome.field]: [outcome.message] } } : outcome ? { formErrors: [outcome.message] } : {}),
          hideFields: passwordFields,
        }),
      } satisfies SettingsActionData,
      { status: outcome?.status ?? 400 },
    );

  switch (intent) {
    case "change-password": {
      const submission = parseWithZod(formData, { schema: changePasswordSchema });
      if (submission.status !== "success") return fail(submission);
      const outcome = await changePassword(request, user, submission.value);
      if (!outcome.ok) return fail(submission, outcome);
      return redirectWithToast(
        here("mot-de-passe"),
        { title: ACCOUNT_MESSAGES.passwordChanged, description: ACCOUNT_MESSAGES.passwordChangedDescription },
        { headers: outcome.headers },
      );
    }
    case "enable-2fa": {
      const submission = parseWithZod(formData, { schema: enableTwoFactorSchema });
      if (submission.status !== "success") return fail(submission);
      const outcome = await startTwoFactorEnrolment(request, user, submission.value.password);
      if (!outcome.ok) return fail(submission, outcome);
      return redirect(here("securite"));
    }
    case "verify-2fa": {
      const submission = parseWithZod(formData, { schema: verifyTwoFactorSchema });
      if (submission.status !== "success") return fail(submission);
      const outcome = await confirmTwoFactorEnrolment(request, user, submission.value.code);
      if (!outcome.ok) return fail(submission, outcome);
      // A redirect carrying the new session cookie: this request's session is gone, so a page
      // rendered in answer to it (a form sent without JavaScript) would find no member. The page
      // it leads to shows the codes once (takeRevealedBackupCodes).
      return redirectWithToast(here("securite"), { title: ACCOUNT_MESSAGES.twoFactorEnabled }, { headers: outcome.headers });
    }
    case "cancel-2fa": {
      await cancelTwoFactorEnrolment(user);
      return redirectWithToast(here("securite"), { type: "info", title: ACCOUNT_MESSAGES.twoFactorCanceled });
    }
    case "regenerate-backup-codes": {
      const submission = parseWithZod(formData, { schema: regenerateBackupCodesSchema });
      if (submission.status !== "success") return fail(submission);
      const outcome = await regenerateBackupCodes(request, user, submission.value.password);
      if (!outcome.ok) return fail(submission, outcome);
      return data(
        { intent, result: submission.reply({ resetForm: true }), backupCodes: outcome.backupCodes } satisfies SettingsActionData,
        { headers: await createToastHeaders({ title: ACCOUNT_MESSAGES.backupCodesRegenerated }) },
      );
    }
    case "disable-2fa": {
      const submission = parseWithZod(formData, { schema: disableTwoFactorSchema });
      if (submission.status !== "success") return fail(submission);
      const outcome = await disableTwoFactor(request, user, submission.value.password);
      if (!outcome.ok) return fail(submission, outcome);
      return redirectWithToast(here("securite"), { title: ACCOUNT_MESSAGES.twoFactorDisabled }, { headers: outcome.headers });
    }
    case "revoke-session": {
      const submission = parseWithZod(formData, { schema: revokeSessionSchema });
      if (submission.status !== "success") throw data({ message: ACCOUNT_MESSAGES.sessionNotFound }, { status: 400 });
      await revokeSession(request, user, submission.value.sessionId);
      return redirectWithToast(here("sessions"), { title: ACCOUNT_MESSAGES.sessionRevoked });
    }
    case "revoke-other-sessions": {
      await revokeOtherSessions(request, user);
      return redirectWithToast(here("sessions"), { title: ACCOUNT_MESSAGES.otherSessionsRevoked });
    }
    case "notifications": {
      const submission = parseWithZod(formData, { schema: notificationPreferencesSchema });
      if (submission.status !== "success") return fail(submission);
      const { intent: _intent, ...preferences } = submission.value;
      await updateNotificationPreferences(user, preferences);
      return redirectWithToast(here("notifications"), { title: ACCOUNT_MESSAGES.preferencesSaved });
    }
    case RATINGS_CONSENT_INTENT: {
      const submission = parseWithZod(formData, { schema: ratingsConsentSchema });
      if (submission.status !== "success") return fail(submission);
      const profile = await getProfileByUserId(user.id);
      if (!profile) throw data({ message: "Profil non trouvé" }, { status: 404 });
      await setRatingsConsent(profile.id, submission.value.showRatingsPublicly);
      return redirectWithToast(here("evaluations"), { title: ACCOUNT_MESSAGES.preferencesSaved });
    }
    case "delete-account": {
      const submission = parseWithZod(formData, { schema: deleteAccountSchema });
      if (submission.status !== "success") return fail(submission);
      const outcome = await deleteAccount(request, user, submission.value.password);
      if (!outcome.ok) return fail(submission, outcome);
      return redirectWithToast(
        "/",
        { title: ACCOUNT_MESSAGES.accountDeleted, description: ACCOUNT_MESSAGES.accountDeletedDescription },
        { headers: outcome.headers },
      );
    }
    default:
      throw data({ message: "Action inconnue" }, { status: 400 });
  }
});

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const { section } = loaderData;
  const result = actionData as SettingsActionData | undefined;
  // Arriving from a link to one section (e.g. the admin 2FA requirement): bring it into view.
  useEffect(() => {
    if (!section) return;
    const heading = document.getElementById(`${section}-titre`);
    heading?.scrollIntoView({ block: "start" });
    heading?.focus({ preventScroll: true });
  }, [section]);
  return (
    <PageContainer className="max-w-3xl py-8">
      <BackLink to={loaderData.back.to} label={loaderData.back.label} />
      <PageTitle className="text-2xl md:text-3xl">Paramètres du compte</PageTitle>
      <p className="mt-2 break-all text-sm text-muted-foreground">Compte&nbsp;: {loaderData.email}</p>

      {loaderData.adminRequiresTwoFactor ? (
        <Alert variant="destructive" className="mt-6">
          <AlertTitle>Double authentification obligatoire</AlertTitle>
          <AlertDescription>
            Les administrateurs doivent activer la double authentification pour accéder à l’administration.{" "}
            <a href="#securite" className="font-medium underline">
              Activer la double authentification
            </a>
          </AlertDescription>
        </Alert>
      ) : null}

      <nav aria-label="Sections des paramètres" className="mt-6">
        <ul className="flex flex-wrap gap-2 text-sm">
          {SECTIONS.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`} className="inline-block rounded-md border px-3 py-1.5 hover:bg-muted">
                {s.label}
              </a>
            </li>
          ))}
          {loaderData.hasProfile ? (
            <li>
              <Link to="/parametres/facturation" className="inline-block rounded-md border px-3 py-1.5 hover:bg-muted">
                Facturation
              </Link>
            </li>
          ) : null}
        </ul>
      </nav>

      <div className="mt-6 grid grid-cols-1 gap-6">
        <PasswordSection actionData={result} />
        <TwoFactorSection
          state={loaderData.twoFactor}
          actionData={result}
          backupCodes={loaderData.backupCodes ?? result?.backupCodes}
          adminRequired={loaderData.adminRequiresTwoFactor}
        />
        <SessionsSection sessions={loaderData.sessions} />
        <NotificationsSection preferences={loaderData.notifications} actionData={result} />
        <RatingsConsentSection consent={loaderData.ratingsConsent} actionData={result} />
        <DataSection hasProfile={loaderData.hasProfile} actionData={result} />
      </div>
    </PageContainer>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const body = isRouteErrorResponse(error) ? (error.data as { message?: unknown } | undefined) : undefined;
  const message =
    isRouteErrorResponse(error) && error.status < 500 && typeof body?.message === "string"
      ? body.message
      : "Nous n’avons pas pu effectuer cette opération. Veuillez réessayer.";
  return (
    <PageContainer className="max-w-3xl py-8">
      <PageTitle className="text-2xl md:text-3xl">Paramètres du compte</PageTitle>
      <Alert variant="destructive" className="mt-6">
        <AlertDescription>{message}</AlertDescription>
      </Alert>
      <Button asChild variant="outline" className="mt-6">
        <Link to="/parametres">Revenir aux paramètres</Link>
      </Button>
    </PageContainer>
  );
}
