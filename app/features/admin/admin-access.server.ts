// The single guard of the back office: every admin loader and action calls it first (nested
// route loaders run in parallel, so each one checks for itself). Non-admins: pages redirect
// to /, mutations get a 403 and change nothing. An admin without two-factor authentication is
// sent to enrol it (/parametres/securite?admin=1) before reaching /admin; a mutation
// from such an account gets a 403.
import { requireAdminWithTwoFactor, type SessionUser } from "~/auth/session.server";

export async function requireAdminAccess(request: Request): Promise<SessionUser> {
  return requireAdminWithTwoFactor(request);
}
