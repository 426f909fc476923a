// better-auth's HTTP handler, behind an allowlist (app/auth/auth-routes.ts): only the links that
// arrive by e-mail (confirmation, password reset) reach it; every other /api/auth path is a 404.
import { isAllowedAuthEndpoint } from "~/auth/auth-routes";
import { getAuth } from "~/auth/auth.server";
import type { Route } from "./+types/auth";

const BASE = "/api/auth";

function notServed(): Response {
  return new Response("Page introuvable", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
}

function handle(request: Request): Promise<Response> | Response {
  const { pathname } = new URL(request.url);
  // The router already resolved dot segments; anything not under the base is not ours.
  if (!pathname.startsWith(`${BASE}/`)) return notServed();
  if (!isAllowedAuthEndpoint(request.method, pathname.slice(BASE.length))) return notServed();
  return getAuth().handler(request);
}

export function loader({ request }: Route.LoaderArgs) {
  return handle(request);
}

export function action({ request }: Route.ActionArgs) {
  return handle(request);
}
