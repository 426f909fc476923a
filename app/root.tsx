import { lazy, Suspense, useEffect } from "react";
import {
  data,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import appCss from "./app.css?url";
import interLatin from "@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url";
import { getRequestIsAdmin, getRequestProfile, getSessionUser } from "~/auth/session.server";
import { getEnv } from "~/lib/env.server";
import { getToast } from "~/lib/toast.server";
import { LazyToaster } from "~/components/lazy-toaster";
import { NavigationProgress } from "~/components/navigation-progress";
import { ServiceWorkerRegistration } from "~/components/service-worker";
import { SiteFooter } from "~/components/site-footer";
import { type HeaderUser, SiteHeader } from "~/components/site-header";
import { SHELL_ROUTE_ID, type ShellData } from "~/components/app-shell/shell-data";
import { useNonce } from "~/lib/request-context";
import { toast as showToast } from "~/lib/toast";

/** What the header needs to send a signed-in user to the right place (HeaderUser). */
async function headerUser(sessionUser: { id: string; email: string }): Promise<HeaderUser> {
  const [admin, profile] = await Promise.all([getRequestIsAdmin(sessionUser.id), getRequestProfile(sessionUser.id)]);
  const standing = profile?.profileStatus === "validated" ? "member" : profile || !admin ? "applicant" : "none";
  return { email: sessionUser.email, isAdmin: admin, standing };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const env = getEnv();
  const sessionUser = await getSessionUser(request);
  const { toast, headers } = await getToast(request);
  return data(
    {
      appName: env.APP_NAME,
      year: new Date().getFullYear(),
      localMail: !env.SMTP_URL,
      // The operator's identity for the legal, contact and support pages (useLegalIdentity).
      legal: env.legal,
      requestId: context.requestId,
      user: sessionUser ? await headerUser(sessionUser) : null,
      toast,
    },
    { headers: headers ?? undefined },
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  // The page is interactive: the browser suite clicks only from then on (tests/e2e/typography-scan.ts).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <html lang="fr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1e3a8a" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* Installable on a phone. */}
        <link rel="manifest" href="/manifest.webmanifest" />
        <link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />
        {/* A stylesheet resource (precedence): React writes it before the modulepreload links,
            so that the browser asks for the render-blocking CSS first rather than behind ~25
            scripts (six connections per host on HTTP/1.1). */}
        <link rel="stylesheet" href={appCss} precedence="default" />
        {/* The typeface's one file (app.css), asked for with the stylesheet rather than after it. */}
        <link rel="preload" href={interLatin} as="font" type="font/woff2" crossOrigin="anonymous" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/**
 * The document's frame. A signed-in member's pages bring their own (routes/member/shell.tsx: the
 * member space's top bar, navigation and footer): then the public header and footer stay out.
 */
function Shell({ children, memberFrame = false }: { children: React.ReactNode; memberFrame?: boolean }) {
  const root = useRouteLoaderData<typeof loader>("root");
  const appName = root?.appName ?? "Réseau Transmission";
  const localMail = root?.localMail ? (
    <aside aria-label="Mode local" className="bg-amber-50 px-4 py-1 text-center text-xs text-amber-900">
      Mode local&nbsp;: les e-mails ne sont pas envoyés.{" "}
      <a className="underline" href="/dev/mailbox">
        Consulter la boîte de réception locale
      </a>
    </aside>
  ) : null;
  const skipLink = (
    <a href="#contenu" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-background focus:p-2">
      Aller au contenu
    </a>
  );
  if (memberFrame) {
    return (
      <>
        {skipLink}
        {localMail}
        {children}
      </>
    );
  }
  return (
    <>
      {skipLink}
      {localMail}
      <SiteHeader appName={appName} user={root?.user ?? null} />
      <main id="contenu" className="flex-1">
        {children}
      </main>
      <SiteFooter appName={appName} year={root?.year ?? new Date().getFullYear()} />
    </>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const { toast } = loaderData;
  useEffect(() => {
    if (!toast) return;
    const show = toast.type === "error" ? showToast.error : toast.type === "info" ? showToast.info : showToast.success;
    show(toast.title, { description: toast.description });
  }, [toast]);
  // The member frame when the member space's layout has one for this visitor.
  const memberFrame = Boolean(useRouteLoaderData<ShellData>(SHELL_ROUTE_ID)?.shell);
  return (
    <Shell memberFrame={memberFrame}>
      <NavigationProgress />
      <Outlet />
      <LazyToaster />
      <ServiceWorkerRegistration />
    </Shell>
  );
}

// The error page is fetched when a page fails (server-rendered at once, hydrated once loaded):
// every page's JavaScript would otherwise carry it (public pages' budget, `npm run lighthouse`).
const ErrorPage = lazy(() => import("~/components/error-page").then((m) => ({ default: m.ErrorPage })));

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const root = useRouteLoaderData<typeof loader>("root");
  return (
    <Shell>
      <Suspense fallback={null}>
        <ErrorPage error={error} requestId={root?.requestId} />
      </Suspense>
    </Shell>
  );
}
