// /parametres/notifications: how often each kind of e-mail reaches the member.
import { requireUser } from "~/auth/session.server";
import { getNotificationPreferences } from "~/features/account/account.server";
import { NotificationsSection } from "~/features/account/components/notifications-section";
import type { SettingsActionData } from "~/features/account/components/settings-form";
import { atEdge } from "~/lib/errors/http";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/notifications";
import { settingsAction } from "./action.server";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Notifications — Paramètres du compte"), { name: "robots", content: "noindex" }];

export const loader = atEdge(async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request, { guests: true });
  const notifications = await getNotificationPreferences(user);
  return { notifications: notifications?.preferences ?? null };
});

export const action = settingsAction;

export default function NotificationSettings({ loaderData, actionData }: Route.ComponentProps) {
  return <NotificationsSection preferences={loaderData.notifications} actionData={actionData as SettingsActionData | undefined} />;
}
