// The account's settings forms as use cases: each intent parses its form and runs its command,
// and says where the member goes next; the route maps the result to HTTP (redirect, toast, data).
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { SessionUser } from "~/auth/session.server";
import type { ToastInput } from "~/lib/toast.server";
import { deleteAccount } from "./account-deletion.server";
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
} from "./account.schema";
import { changePassword, type CommandOutcome, revokeOtherSessions, revokeSession, updateNotificationPreferences } from "./account.server";
import { cancelTwoFactorEnrolment, confirmTwoFactorEnrolment, disableTwoFactor, regenerateBackupCodes, startTwoFactorEnrolment } from "./two-factor.server";

/** A parsed form, as far as sending it back goes. */
type Submission = {
  reply: (options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[]; resetForm?: boolean }) => SubmissionResult<string[]>;
};
export type CommandFailure = Extract<CommandOutcome, { ok: false }>;

/**
 * What a settings command ends with: the form sent back with its errors (`rejected`), a settings
 * section (or `"/"`) to go to with a toast (`done`), the new backup codes shown on the same page
 * (`codes`), or a request no form sends (`bad-request`).
 */
export type SettingsCommandResult =
  | { kind: "rejected"; submission: Submission; failure?: CommandFailure }
  | { kind: "done"; section: string; toast?: ToastInput; headers?: Headers }
  | { kind: "codes"; submission: Submission; backupCodes: string[]; toast: ToastInput }
  | { kind: "bad-request"; message: string };

type Command = (request: Request, user: SessionUser, formData: FormData) => Promise<SettingsCommandResult>;

/** The section a command's success leads to: `"/"` is the home page (a deleted account). */
const done = (section: string, toast?: ToastInput, headers?: Headers): SettingsCommandResult => ({ kind: "done", section, toast, headers });

/** Parses the form with `schema`, then runs `run` on its value; a failed outcome sends the form back. */
function withForm<S extends Parameters<typeof parseWithZod>[1]["schema"]>(
  schema: S,
  run: (request: Request, user: SessionUser, value: never, submission: Submission) => Promise<SettingsCommandResult | CommandFailure>,
): Command {
  return async (request, user, formData) => {
    const submission = parseWithZod(formData, { schema });
    if (submission.status !== "success") return { kind: "rejected", submission };
    const result = await run(request, user, submission.value as never, submission);
    return "kind" in result ? result : { kind: "rejected", submission, failure: result };
  };
}

export const SETTINGS_COMMANDS: Record<string, Command> = {
  "change-password": withForm(changePasswordSchema, async (request, user, value: { currentPassword: string; newPassword: string; confirmPassword: string }) => {
    const outcome = await changePassword(request, user, value);
    return outcome.ok ? done("mot-de-passe", { title: ACCOUNT_MESSAGES.passwordChanged, description: ACCOUNT_MESSAGES.passwordChangedDescription }, outcome.headers) : outcome;
  }),
  "enable-2fa": withForm(enableTwoFactorSchema, async (request, user, value: { password: string }) => {
    const outcome = await startTwoFactorEnrolment(request, user, value.password);
    return outcome.ok ? done("securite") : outcome;
  }),
  // The new session cookie comes with the redirect: this request's session is gone, so a page
  // rendered in answer to it (a form sent without JavaScript) would find no member. The page it
  // leads to shows the codes once (takeRevealedBackupCodes).
  "verify-2fa": withForm(verifyTwoFactorSchema, async (request, user, value: { code: string }) => {
    const outcome = await confirmTwoFactorEnrolment(request, user, value.code);
    return outcome.ok ? done("securite", { title: ACCOUNT_MESSAGES.twoFactorEnabled }, outcome.headers) : outcome;
  }),
  "cancel-2fa": async (_request, user) => {
    await cancelTwoFactorEnrolment(user);
    return done("securite", { type: "info", title: ACCOUNT_MESSAGES.twoFactorCanceled });
  },
  "regenerate-backup-codes": withForm(regenerateBackupCodesSchema, async (request, user, value: { password: string }, submission) => {
    const outcome = await regenerateBackupCodes(request, user, value.password);
    return outcome.ok ? { kind: "codes", submission, backupCodes: outcome.backupCodes, toast: { title: ACCOUNT_MESSAGES.backupCodesRegenerated } } : outcome;
  }),
  "disable-2fa": withForm(disableTwoFactorSchema, async (request, user, value: { password: string }) => {
    const outcome = await disableTwoFactor(request, user, value.password);
    return outcome.ok ? done("securite", { title: ACCOUNT_MESSAGES.twoFactorDisabled }, outcome.headers) : outcome;
  }),
  "revoke-session": async (request, user, formData) => {
    const submission = parseWithZod(formData, { schema: revokeSessionSchema });
    if (submission.status !== "success") return { kind: "bad-request", message: ACCOUNT_MESSAGES.sessionNotFound };
    await revokeSession(request, user, submission.value.sessionId);
    return done("sessions", { title: ACCOUNT_MESSAGES.sessionRevoked });
  },
  "revoke-other-sessions": async (request, user) => {
    await revokeOtherSessions(request, user);
    return done("sessions", { title: ACCOUNT_MESSAGES.otherSessionsRevoked });
  },
  notifications: withForm(notificationPreferencesSchema, async (_request, user, value: Record<string, unknown>) => {
    const { intent: _intent, ...preferences } = value;
    await updateNotificationPreferences(user, preferences as Parameters<typeof updateNotificationPreferences>[1]);
    return done("notifications", { title: ACCOUNT_MESSAGES.preferencesSaved });
  }),
  "delete-account": withForm(deleteAccountSchema, async (request, user, value: { password: string }) => {
    const outcome = await deleteAccount(request, user, value.password);
    return outcome.ok ? done("/", { title: ACCOUNT_MESSAGES.accountDeleted, description: ACCOUNT_MESSAGES.accountDeletedDescription }, outcome.headers) : outcome;
  }),
};
