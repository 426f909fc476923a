// Logo and photo of a premium member's profile (spec §2 "Profile tab", §5 "Image upload", §7
// "Storage"): checked, re-encoded to WebP, stored at {userId}/{timestamp}-{random}.webp, and the
// public URL saved on the profile. The file it replaces is deleted afterwards.
import { createHash, randomBytes } from "node:crypto";
import { can } from "~/auth/permissions";
import { prepareImage } from "~/lib/storage/image.server";
import { keyFromPublicUrl, getStorage } from "~/lib/storage/storage.server";
import { uploadErrors } from "~/lib/storage/upload-body.server";
import { PROFILE_IMAGE_MAX_MB } from "~/lib/storage/upload-rules";
import { logger } from "~/lib/logger.server";
import type { MemberActor } from "~/auth/actor";
import { setOwnProfileImage } from "./profile-editor.server";
import { PROFILE_MESSAGES, type ImageKind } from "./profile.schema";
import { AppError } from "~/lib/errors/app-error";

/** Largest stored dimensions: enough for the public profile on a high-density screen. */
export const PROFILE_IMAGE_SIZES: Record<ImageKind, { maxWidth: number; maxHeight: number }> = {
  logo: { maxWidth: 600, maxHeight: 600 },
  photo: { maxWidth: 800, maxHeight: 800 },
};

/** The member's folder: the user id when it is a plain token (it always is), else its hash. */
function folderOf(userId: string): string {
  return /^[A-Za-z0-9_-]{1,128}$/.test(userId) ? userId : createHash("sha256").update(userId).digest("hex").slice(0, 32);
}

/** A unique, unguessable name: the timestamp of the spec plus a random suffix. */
export function newImageKey(userId: string, now = Date.now()): string {
  return `${folderOf(userId)}/${now}-${randomBytes(6).toString("hex")}.webp`;
}

async function deleteReplaced(actor: MemberActor, previousUrl: string | null) {
  const key = keyFromPublicUrl(previousUrl);
  // Only files of this member's own folder: a URL pointing elsewhere is left alone.
  if (!key || !key.startsWith(`${folderOf(actor.userId)}/`)) return;
  try {
    await getStorage().deleteObject(key);
  } catch (error) {
    logger.warn({ err: error, key }, "could not delete a replaced profile image");
  }
}

export async function uploadProfileImage(actor: MemberActor, kind: ImageKind, bytes: Uint8Array): Promise<{ url: string }> {
  if (!can(actor.membershipType, "enrichedProfile")) throw new AppError("forbidden", PROFILE_MESSAGES.premiumOnly);
  const image = await prepareImage(bytes, { maxMb: PROFILE_IMAGE_MAX_MB, ...PROFILE_IMAGE_SIZES[kind] });
  const storage = getStorage();
  const key = newImageKey(actor.userId);
  try {
    await storage.putObject(key, image.bytes, image.contentType);
  } catch (error) {
    logger.error({ err: error, key }, "profile image could not be stored");
    throw uploadErrors.failed();
  }
  const url = storage.publicUrl(key);
  let previousUrl: string | null;
  try {
    ({ previousUrl } = await setOwnProfileImage(actor, kind, url));
  } catch (error) {
    await storage.deleteObject(key).catch(() => undefined);
    throw error;
  }
  await deleteReplaced(actor, previousUrl);
  return { url };
}

export async function removeProfileImage(actor: MemberActor, kind: ImageKind): Promise<void> {
  const { previousUrl } = await setOwnProfileImage(actor, kind, null);
  await deleteReplaced(actor, previousUrl);
}
