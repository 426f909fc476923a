// The member space's frame around the dashboard, /mandates, /premium, /parametres
// and /admin. It guards nothing (each page does, with its own guard): it only says whether the
// visitor gets the member frame — a validated member or an admin — or the public header (an
// applicant on /parametres, a signed-out visitor on the way to /auth). The session, profile and
// admin reads are the root's, memoised per request: the frame costs no statement.
import { Outlet, useRouteError, useRouteLoaderData } from "react-router";
import { getRequestIsAdmin, getRequestProfile, getSessionUser } from "~/auth/session.server";
import { normaliseMembership } from "~/auth/permissions";
import { AppShell, SHELL_ROUTE_ID, type ShellData, type ShellUser } from "~/components/app-shell/app-shell";
import { ErrorPage } from "~/components/error-page";
import { SiteFooter } from "~/components/site-footer";
import { NotificationBell } from "~/features/notifications/components/notification-bell";
import type { NotificationState } from "~/features/notifications/notification-rules";
import { getNotificationState } from "~/features/notifications/notifications.server";
import { getEnv } from "~/lib/env.server";
import type { Route } from "./+types/shell";

/** The frame's data, with the notification bell's first state. */
type MemberShellData = { shell: (NonNullable<ShellData["shell"]> & { notifications: NotificationState }) | null };

export async function loader({ request }: Route.LoaderArgs): Promise<MemberShellData> {
  const sessionUser = await getSessionUser(request);
  if (!sessionUser) return { shell: null };
  const [admin, profile] = await Promise.all([getRequestIsAdmin(sessionUser.id), getRequestProfile(sessionUser.id)]);
  const member = profile?.profileStatus === "validated";
  if (!member && !admin) return { shell: null };
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
  const notifications = await getNotificationState(sessionUser.id);
  return { shell: { appName: getEnv().APP_NAME, year: new Date().getFullYear(), user, notifications } };
}

function Frame({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<MemberShellData>(SHELL_ROUTE_ID);
  const shell = data?.shell;
  if (!shell) return <>{children}</>;
  return (
    <AppShell
      appName={shell.appName}
      user={shell.user}
      bell={<NotificationBell initial={shell.notifications} />}
      footer={<SiteFooter appName={shell.appName} year={shell.year} />}
    >
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
