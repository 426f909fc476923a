import { parseWithZod } from "@conform-to/zod/v4";
import { Bell } from "lucide-react";
import { data, isRouteErrorResponse, redirect } from "react-router";
import { requireMember } from "~/auth/session.server";
import { Card } from "~/components/ui/card";
import { MarkAllRead, NotificationList } from "~/features/notifications/components/notification-list";
import { useLiveNotifications } from "~/features/notifications/components/live-notifications";
import { notificationActionSchema, NOTIFICATIONS_PATH } from "~/features/notifications/notifications.schema";
import { getNotificationState, markAllNotificationsRead, markNotificationRead, openTasksPage } from "~/features/notifications/notifications.server";
import { OpenTaskList } from "~/features/notifications/components/open-task-list";
import { countLabel } from "~/lib/format";
import { readForm } from "~/lib/form.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/notifications";
import { atEdge } from "~/lib/errors/http";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Notifications"), { name: "robots", content: "noindex" }];

export const loader = atEdge(async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireMember(request);
  const cursor = new URL(request.url).searchParams.get("taches");
  const [state, tasks] = await Promise.all([getNotificationState(user.id), openTasksPage(user.id, cursor)]);
  return { state, tasks: { ...tasks, paged: Boolean(cursor) } };
});

export const action = atEdge(async function action({ request }: Route.ActionArgs) {
  const actor = await requireMember(request);
  const submission = parseWithZod(await readForm(request), { schema: notificationActionSchema });
  if (submission.status !== "success") return data({ message: "Requête invalide" }, { status: 400 });
  const value = submission.value;
  if (value.intent === "read-all") {
    await markAllNotificationsRead(actor);
    return { ok: true };
  }
  const { link } = await markNotificationRead(actor, value.id);
  if (value.intent === "open") throw redirect(link ?? NOTIFICATIONS_PATH);
  return { ok: true };
});

export default function Notifications({ loaderData }: Route.ComponentProps) {
  const state = useLiveNotifications(loaderData.state);
  const { tasks } = loaderData;
  return (
    <section aria-labelledby="tab-title" className="grid grid-cols-1 gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 id="tab-title" className="text-xl font-semibold">
            Notifications
          </h2>
          <p className="text-sm text-muted-foreground" data-testid="notifications-unread">
            {state.unread > 0 ? countLabel(state.unread, "non lue", "non lues") : "Tout est lu"} · conservées 90 jours
          </p>
        </div>
        <MarkAllRead disabled={state.unread === 0} />
      </div>
      <Card className="p-0">
        {state.items.length === 0 ? (
          <div className="flex flex-col items-center gap-2 p-8 text-center">
            <Bell className="h-8 w-8 text-muted-foreground" aria-hidden="true" />
            <NotificationList items={[]} />
          </div>
        ) : (
          <NotificationList items={state.items} />
        )}
      </Card>
      <section aria-labelledby="tasks-title" className="grid gap-2">
        <h3 id="tasks-title" className="text-lg font-semibold">
          Tâches ouvertes
        </h3>
        <Card className="p-0">
          <OpenTaskList tasks={tasks.tasks} next={tasks.next} paged={tasks.paged} />
        </Card>
      </section>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const message = isRouteErrorResponse(error) && error.status === 404 ? "Notification introuvable." : "Les notifications n’ont pas pu être chargées. Réessayez dans un instant.";
  return (
    <Card className="p-6" role="alert">
      <p>{message}</p>
    </Card>
  );
}
