// /parametres/securite: the password, two-factor authentication and the open sessions.
import { data } from "react-router";
import { getRequestIsAdmin, getRequestSessionId, requireUser } from "~/auth/session.server";
import { listActiveSessions } from "~/features/account/account.server";
import { PasswordSection } from "~/features/account/components/password-section";
import { SessionsSection } from "~/features/account/components/sessions-section";
import type { SettingsActionData } from "~/features/account/components/settings-form";
import { TwoFactorSection } from "~/features/account/components/two-factor-section";
import { getTwoFactorState, takeRevealedBackupCodes } from "~/features/account/two-factor.server";
import { atEdge } from "~/lib/errors/http";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/security";
import { settingsAction } from "./action.server";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Sécurité — Paramètres du compte"), { name: "robots", content: "noindex" }];

export const loader = atEdge(async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request, { guests: true });
  const [currentSessionId, admin, twoFactor, revealed] = await Promise.all([
    getRequestSessionId(request),
    getRequestIsAdmin(user.id),
    getTwoFactorState(user),
    takeRevealedBackupCodes(request, user),
  ]);
  const sessions = await listActiveSessions(user, currentSessionId);
  return data(
    {
      twoFactor,
      sessions,
      adminRequiresTwoFactor: admin && !user.twoFactorEnabled,
      /** Right after activation only: shown once, the pass is then used up. */
      backupCodes: revealed.backupCodes,
    },
    revealed.headers ? { headers: revealed.headers } : undefined,
  );
});

export const action = settingsAction;

export default function SecuritySettings({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as SettingsActionData | undefined;
  return (
    <div className="grid grid-cols-1 gap-6">
      <PasswordSection actionData={result} />
      <TwoFactorSection
        state={loaderData.twoFactor}
        actionData={result}
        backupCodes={loaderData.backupCodes ?? result?.backupCodes}
        adminRequired={loaderData.adminRequiresTwoFactor}
      />
      <SessionsSection sessions={loaderData.sessions} />
    </div>
  );
}
