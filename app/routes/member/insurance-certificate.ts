// GET /justificatifs/:profileId/assurance: a member's insurance certificate (issue 14), for that
// member (during onboarding too) and for administrators (with their second factor, as in the back
// office); a 404 for anyone else, whether or not the profile or the certificate exists. Never
// cached, never logged with its name.
import { getProfileByUserId, isAdmin, requireUser } from "~/auth/session.server";
import { expectedMessage, expectedStatus } from "~/features/messages/errors";
import { openInsuranceCertificate } from "~/features/trust/verification.server";
import { VERIFICATION_MESSAGES } from "~/features/trust/verification.schema";
import type { Route } from "./+types/insurance-certificate";

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const [profile, admin] = await Promise.all([getProfileByUserId(user.id), isAdmin(user.id)]);
  try {
    const doc = await openInsuranceCertificate({ profileId: profile?.id ?? null, isAdmin: admin && user.twoFactorEnabled === true }, params.profileId);
    return new Response(new Uint8Array(doc.bytes), {
      headers: {
        "content-type": doc.contentType,
        "content-length": String(doc.bytes.byteLength),
        "content-disposition": doc.disposition,
        "cache-control": "private, no-store",
      },
    });
  } catch (error) {
    const status = expectedStatus(error);
    if (status === null) throw error;
    return new Response(expectedMessage(error, VERIFICATION_MESSAGES.notFound), {
      status,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
    });
  }
}
