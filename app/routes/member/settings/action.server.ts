// The settings forms' one action: each intent is a use case of the account feature; on success
// the member lands on the settings page that holds the form, with a toast.
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { getProfileByUserId, requireUser } from "~/auth/session.server";
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
import { changePassword, type CommandOutcome, revokeOtherSessions, revokeSession, updateNotificationPreferences } from "~/features/account/account.server";
import type { SettingsActionData } from "~/features/account/components/settings-form";
import {
  cancelTwoFactorEnrolment,
  confirmTwoFactorEnrolment,
  disableTwoFactor,
  regenerateBackupCodes,
  startTwoFactorEnrolment,
} from "~/features/account/two-factor.server";
import { RATINGS_CONSENT_INTENT } from "~/features/trust/components/ratings-consent-section";
import { ratingsConsentSchema } from "~/features/trust/ratings.schema";
import { setRatingsConsent } from "~/features/trust/ratings.server";
import { atEdge } from "~/lib/errors/http";
import { readForm } from "~/lib/form.server";
import { createToastHeaders, redirectWithToast } from "~/lib/toast.server";
import { settingsPath } from "./pages";

const here = settingsPath;

type Failure = Extract<CommandOutcome, { ok: false }>;

/** Every settings form posts here, whichever settings page shows it. */
export const settingsAction = atEdge(async function action({ request }: { request: Request }) {
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
