// /parametres/donnees: the export of the member's data and the deletion of the account.
import { getRequestProfile, requireUser } from "~/auth/session.server";
import { DataSection } from "~/features/account/components/data-section";
import type { SettingsActionData } from "~/features/account/components/settings-form";
import { atEdge } from "~/lib/errors/http";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/data";
import { settingsAction } from "./action.server";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Mes données — Paramètres du compte"), { name: "robots", content: "noindex" }];

export const loader = atEdge(async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request, { guests: true });
  return { hasProfile: Boolean(await getRequestProfile(user.id)) };
});

export const action = settingsAction;

export default function DataSettings({ loaderData, actionData }: Route.ComponentProps) {
  return <DataSection hasProfile={loaderData.hasProfile} actionData={actionData as SettingsActionData | undefined} />;
}
