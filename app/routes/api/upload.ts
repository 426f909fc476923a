// POST /api/uploads: the logo or photo of a premium member's profile (multipart: kind, file).
// The upload component sends it with XMLHttpRequest (for the progress bar) and asks for JSON;
// without JavaScript the same form posts here and comes back to the profile tab with a toast.
import { redirect } from "react-router";
import { requireMember } from "~/auth/session.server";
import { can } from "~/auth/permissions";
import { memberActor } from "~/auth/actor";
import { uploadProfileImage } from "~/features/profiles/profile-images.server";
import { imageKindSchema, PROFILE_MESSAGES } from "~/features/profiles/profile.schema";
import { logger } from "~/lib/logger.server";
import { consumeRateLimit, type RateLimitRule } from "~/lib/rate-limit.server";
import { readMultipartWithLimit, UploadError } from "~/lib/storage/upload-body.server";
import { PROFILE_IMAGE_MAX_MB, UPLOAD_MESSAGES } from "~/lib/storage/upload-rules";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/upload";
import { atEdge, expectedStatus } from "~/lib/errors/http";

const BACK = "/dashboard/profil";
// Re-encoding costs CPU: a generous ceiling for a person, a wall for a script.
const UPLOAD_RATE: RateLimitRule = { limit: 30, windowSeconds: 60 * 60 };

export type UploadResponse = { ok: true; kind: string; url: string } | { ok: false; title: string; description: string };

export const loader = atEdge(async function loader({ request }: Route.LoaderArgs) {
  await requireMember(request);
  return redirect(BACK);
});

/** The status of a feature's expected failure (an AppError or a thrown `data()`), or null. */
function statusOf(error: unknown): number | null {
  return error instanceof Response ? null : expectedStatus(error);
}

export const action = atEdge(async function action({ request }: Route.ActionArgs) {
  const { profile } = await requireMember(request);
  const actor = memberActor(profile);
  const wantsJson = (request.headers.get("accept") ?? "").includes("application/json");
  const reply = async (status: number, body: UploadResponse) => {
    if (wantsJson) return Response.json(body, { status, headers: { "cache-control": "no-store" } });
    return body.ok
      ? redirectWithToast(BACK, { type: "success", title: PROFILE_MESSAGES.savedTitle, description: PROFILE_MESSAGES.savedDescription })
      : redirectWithToast(BACK, { type: "error", title: body.title, description: body.description });
  };
  const failure = (status: number, title: string, description: string) => reply(status, { ok: false, title, description });

  if (!can(actor.membershipType, "enrichedProfile")) return failure(403, UPLOAD_MESSAGES.failedTitle, PROFILE_MESSAGES.premiumOnly);
  const rate = await consumeRateLimit(`upload:${actor.userId}`, UPLOAD_RATE);
  if (!rate.allowed) return failure(429, UPLOAD_MESSAGES.failedTitle, "Trop d’envois d’images en peu de temps. Veuillez réessayer plus tard.");

  try {
    const form = await readMultipartWithLimit(request, PROFILE_IMAGE_MAX_MB);
    const kind = imageKindSchema.safeParse(form.get("kind"));
    if (!kind.success) return failure(400, UPLOAD_MESSAGES.failedTitle, UPLOAD_MESSAGES.failedDescription);
    const file = form.get("file");
    if (file === null || typeof file === "string" || file.size === 0) {
      return failure(400, UPLOAD_MESSAGES.unsupportedTitle, UPLOAD_MESSAGES.unsupportedDescription);
    }
    const { url } = await uploadProfileImage(actor, kind.data, new Uint8Array(await file.arrayBuffer()));
    return reply(200, { ok: true, kind: kind.data, url });
  } catch (error) {
    if (error instanceof UploadError) return failure(error.status, error.title, error.description);
    const status = statusOf(error);
    if (status === 403) return failure(403, UPLOAD_MESSAGES.failedTitle, PROFILE_MESSAGES.premiumOnly);
    logger.error({ err: error }, "profile image upload failed");
    return failure(500, UPLOAD_MESSAGES.failedTitle, UPLOAD_MESSAGES.failedDescription);
  }
});
