// The application's frame around every signed-in page: the dashboard, /mandates, /premium,
// /parametres, /onboarding and /admin. It guards nothing (each page does, with its own guard): it
// only says which frame the visitor gets — the member space's, the back office's or an
// applicant's (components/app-shell/places.ts, frameFor) — or none, for a signed-out visitor on
// the way to /auth, who keeps the public header. The session, profile and admin reads are the
// root's, memoised per request: the frame costs no statement.
import { Outlet, useRouteError, useRouteLoaderData } from "react-router";
import { getRequestIsAdmin, getRequestProfile, getSessionUser } from "~/auth/session.server";
import { normaliseMembership } from "~/auth/permissions";
import { AppShell, SHELL_ROUTE_ID, type PlaceCounts, type ShellData, type ShellUser } from "~/components/app-shell/app-shell";
import { ErrorPage } from "~/components/error-page";
import { AppFooter } from "~/components/app-shell/app-footer";
import { NotificationBell } from "~/features/notifications/components/notification-bell";
import { useLiveNotifications } from "~/features/notifications/components/live-notifications";
import type { NotificationState } from "~/features/notifications/notification-rules";
import { getNotificationState } from "~/features/notifications/notifications.server";
import { getEnv } from "~/lib/env.server";
import type { Route } from "./+types/shell";
import { atEdge } from "~/lib/errors/http";
import { keepFrameOnNavigation } from "~/lib/revalidation";

/** The frame's data, with the notification bell's first state. */
type MemberShellData = { shell: (NonNullable<ShellData["shell"]> & { notifications: NotificationState | null }) | null };

export const loader = atEdge(async function loader({ request }: Route.LoaderArgs): Promise<MemberShellData> {
  const sessionUser = await getSessionUser(request);
  if (!sessionUser) return { shell: null };
  const [admin, profile] = await Promise.all([getRequestIsAdmin(sessionUser.id), getRequestProfile(sessionUser.id)]);
  const member = profile?.profileStatus === "validated";
  const user: ShellUser = {
    firstName: member ? profile.firstName : "",
    lastName: member ? profile.lastName : "",
    email: sessionUser.email,
    profileId: member ? profile.id : null,
    membership: member ? normaliseMembership(profile.membershipType) : null,
    member,
    admin,
  };
  // The bell's first state (then live, app/features/notifications/live.server.ts).
  const notifications = member || admin ? await getNotificationState(sessionUser.id) : null;
  return { shell: { appName: getEnv().APP_NAME, year: new Date().getFullYear(), user, notifications } };
});

// The frame depends on the member, not on the URL: navigations keep it (app/lib/revalidation.ts).
export const shouldRevalidate = keepFrameOnNavigation;

type Shell = NonNullable<MemberShellData["shell"]>;

/** The places' unread counts, from the areas of the notification state. */
function placeCounts(state: NotificationState): PlaceCounts {
  return { messages: state.counts.messages, dossiers: state.counts.files, mandats: state.counts.mandates };
}

function ShellWithCounts({ shell, notifications, children }: { shell: Shell; notifications: NotificationState; children: React.ReactNode }) {
  // The same live state as the bell's (one stream per tab): the counts change without a reload.
  const live = useLiveNotifications(notifications);
  return (
    <AppShell
      appName={shell.appName}
      user={shell.user}
      bell={<NotificationBell initial={notifications} />}
      counts={placeCounts(live)}
      footer={<AppFooter appName={shell.appName} year={shell.year} />}
    >
      {children}
    </AppShell>
  );
}

function Frame({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<MemberShellData>(SHELL_ROUTE_ID);
  const shell = data?.shell;
  if (!shell) return <>{children}</>;
  if (shell.notifications) {
    return (
      <ShellWithCounts shell={shell} notifications={shell.notifications}>
        {children}
      </ShellWithCounts>
    );
  }
  return (
    <AppShell appName={shell.appName} user={shell.user} footer={<AppFooter appName={shell.appName} year={shell.year} />}>
      {children}
    </AppShell>
  );
}

export default function MemberShell() {
  return (
    <Frame>
      <Outlet />
    </Frame>
  );
}

/** A page's failure inside the frame: the navigation stays, the message replaces the page. */
export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<ShellData>(SHELL_ROUTE_ID);
  return (
    <Frame>
      <ErrorPage error={error} home={data?.shell?.user.member ? "/dashboard" : "/"} />
    </Frame>
  );
}
