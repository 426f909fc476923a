// GET /mediations/pieces/:attachmentId: a document joined to a mediation, for the
// member who joined it and for administrators (with their second factor, as in the back office);
// a 404 for anyone else, whether or not the attachment exists. Never cached.
import { getRequestIsAdmin, getRequestProfile, requireUser } from "~/auth/session.server";
import { MEDIATION_MESSAGES } from "~/features/mediation/mediation-rules";
import { openMediationAttachment } from "~/features/mediation/mediation.server";
import { privateFileResponse } from "~/lib/private-download.server";
import { atEdge, expectedFailureResponse } from "~/lib/errors/http";
import type { Route } from "./+types/mediation-attachment";

export const loader = atEdge(async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const [profile, admin] = await Promise.all([getRequestProfile(user.id), getRequestIsAdmin(user.id)]);
  try {
    return privateFileResponse(await openMediationAttachment({ profileId: profile?.id ?? null, isAdmin: admin && user.twoFactorEnabled === true }, params.attachmentId));
  } catch (error) {
    return expectedFailureResponse(error, MEDIATION_MESSAGES.notFound);
  }
});
