// GET /justificatifs/:profileId/assurance: a member's insurance certificate, for that
// member (during onboarding too) and for administrators (with their second factor, as in the back
// office); a 404 for anyone else, whether or not the profile or the certificate exists. Never
// cached, never logged with its name.
import { getProfileByUserId, isAdmin, requireUser } from "~/auth/session.server";
import { openInsuranceCertificate } from "~/features/trust/verification.server";
import { VERIFICATION_MESSAGES } from "~/features/trust/verification.schema";
import { privateFileResponse } from "~/lib/private-download.server";
import { atEdge, expectedFailureResponse } from "~/lib/errors/http";
import type { Route } from "./+types/insurance-certificate";

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const [profile, admin] = await Promise.all([getProfileByUserId(user.id), isAdmin(user.id)]);
  try {
    return privateFileResponse(await openInsuranceCertificate({ profileId: profile?.id ?? null, isAdmin: admin && user.twoFactorEnabled === true }, params.profileId));
  } catch (error) {
    return expectedFailureResponse(error, VERIFICATION_MESSAGES.notFound);
  }
});
