// The better-auth HTTP endpoints this product serves: an ALLOWLIST. The
// product's pages call better-auth from the server (auth.api.*), inside the application's own
// actions with their rate limits, security e-mails and audit rows; over HTTP only the two links
// that arrive by e-mail are needed. Anything else — including endpoints a future better-auth
// version adds — answers 404 (routes/api/auth.ts).

export type AllowedAuthEndpoint = { method: "GET" | "POST"; path: RegExp; why: string };

export const ALLOWED_AUTH_ENDPOINTS: readonly AllowedAuthEndpoint[] = [
  { method: "GET", path: /^\/verify-email$/, why: "e-mail confirmation link (sign-up, sign-in before confirming)" },
  { method: "GET", path: /^\/reset-password\/[^/]+$/, why: "password-reset link, which redirects to /auth/nouveau-mot-de-passe" },
];

/** Whether `method path` (path relative to /api/auth) may reach better-auth's handler. */
export function isAllowedAuthEndpoint(method: string, path: string): boolean {
  const m = method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase();
  return ALLOWED_AUTH_ENDPOINTS.some((e) => e.method === m && e.path.test(path));
}
