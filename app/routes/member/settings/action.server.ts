// The settings forms' one action: each intent is a use case of the account feature
// (features/account/settings-commands.server.ts), the ratings' consent one of trust; the route
// maps its result to HTTP — the page that holds the form with a toast, or the form's errors.
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { getProfileByUserId, requireUser } from "~/auth/session.server";
import { ACCOUNT_MESSAGES } from "~/features/account/account.schema";
import type { SettingsActionData } from "~/features/account/components/settings-form";
import { type CommandFailure, SETTINGS_COMMANDS, type SettingsCommandResult } from "~/features/account/settings-commands.server";
import { RATINGS_CONSENT_INTENT } from "~/features/trust/components/ratings-consent-section";
import { ratingsConsentSchema } from "~/features/trust/ratings.schema";
import { setRatingsConsent } from "~/features/trust/ratings.server";
import { atEdge } from "~/lib/errors/http";
import { readForm } from "~/lib/form.server";
import { createToastHeaders, redirectWithToast } from "~/lib/toast.server";
import { settingsPath } from "./pages";

const PASSWORD_FIELDS = ["password", "currentPassword", "newPassword", "confirmPassword", "code"];

/** The ratings' consent (the trust feature's use case), shown on the settings' evaluations section. */
async function ratingsConsent(user: { id: string }, formData: FormData): Promise<SettingsCommandResult> {
  const submission = parseWithZod(formData, { schema: ratingsConsentSchema });
  if (submission.status !== "success") return { kind: "rejected", submission };
  const profile = await getProfileByUserId(user.id);
  if (!profile) throw data({ message: "Profil non trouvé" }, { status: 404 });
  await setRatingsConsent(profile.id, submission.value.showRatingsPublicly);
  return { kind: "done", section: "evaluations", toast: { title: ACCOUNT_MESSAGES.preferencesSaved } };
}

/** Every settings form posts here, whichever settings page shows it. */
export const settingsAction = atEdge(async function action({ request }: { request: Request }) {
  const user = await requireUser(request, { guests: true });
  const formData = await readForm(request);
  const intent = String(formData.get("intent") ?? "");
  // Own keys only: an intent such as « __proto__ » must not reach an inherited property.
  const command = Object.hasOwn(SETTINGS_COMMANDS, intent) ? SETTINGS_COMMANDS[intent] : undefined;
  if (!command && intent !== RATINGS_CONSENT_INTENT) throw data({ message: "Action inconnue" }, { status: 400 });
  const result = command ? await command(request, user, formData) : await ratingsConsent(user, formData);
  switch (result.kind) {
    case "rejected":
      return rejected(intent, result.submission, result.failure);
    case "bad-request":
      throw data({ message: result.message }, { status: 400 });
    case "codes":
      return data(
        { intent, result: result.submission.reply({ resetForm: true }), backupCodes: result.backupCodes } satisfies SettingsActionData,
        { headers: await createToastHeaders(result.toast) },
      );
    case "done": {
      const to = result.section === "/" ? "/" : settingsPath(result.section);
      const init = result.headers ? { headers: result.headers } : undefined;
      return result.toast ? redirectWithToast(to, result.toast, init) : redirect(to, init);
    }
  }
});

/** The form sent back with its errors (a command's failure on its field, else on the form), passwords cleared. */
function rejected(intent: string, submission: Extract<SettingsCommandResult, { kind: "rejected" }>["submission"], failure?: CommandFailure) {
  return data(
    {
      intent,
      result: submission.reply({
        ...(failure?.field ? { fieldErrors: { [failure.field]: [failure.message] } } : failure ? { formErrors: [failure.message] } : {}),
        hideFields: PASSWORD_FIELDS,
      }) as SettingsActionData["result"],
    } satisfies SettingsActionData,
    { status: failure?.status ?? 400 },
  );
}
