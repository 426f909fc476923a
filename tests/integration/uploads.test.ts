// Image uploads (spec §5 "Image upload", §7 "Storage"): type from the bytes, size limits,
// re-encoding to WebP without metadata, storage at {userId}/{timestamp}-{random}.webp, the URL
// saved on the profile, and the file served with long cache headers.
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { profiles, rateLimitCounters, storedObjects } from "~/db/schema";
import { profileSearchText } from "~/db/search-text";
import { memberActor } from "~/auth/actor";
import { removeProfileImage, uploadProfileImage } from "~/features/profiles/profile-images.server";
import { getEnv, setEnv } from "~/lib/env.server";
import { prepareImage } from "~/lib/storage/image.server";
import { createDatabaseStorage } from "~/lib/storage/database-driver.server";
import { createLocalStorage } from "~/lib/storage/local-driver.server";
import { getStorage, isSafeKey, keyFromPublicUrl, setStorage } from "~/lib/storage/storage.server";
import { readBodyWithLimit, UploadError } from "~/lib/storage/upload-body.server";
import { action as uploadAction } from "~/routes/api/upload";
import { loader as fileLoader } from "~/routes/api/uploads-file";
import { createMember, type CreatedMember } from "../support/factories";
import { useTestDatabase } from "../support/db";
import { sessionCookie } from "../support/session";

const t = useTestDatabase();
let root: string;

beforeAll(() => {
  setEnv({ ...getEnv(), BETTER_AUTH_SECRET: "test-secret-for-upload-tests-0123456789abcdef" });
  root = mkdtempSync(path.join(os.tmpdir(), "rt-uploads-"));
  setStorage(createLocalStorage(root, "/uploads/"));
});

afterAll(() => {
  setStorage(undefined);
  rmSync(root, { recursive: true, force: true });
});

beforeEach(async () => {
  await t.db!.delete(rateLimitCounters);
});

const MB = 1024 * 1024;
const canvas = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 30, g: 80, b: 160 } } });

/** A real JPEG carrying EXIF data that must not survive. */
const jpegWithExif = (width = 1600, height = 1200) =>
  canvas(width, height)
    .jpeg()
    .withExif({ IFD0: { Artist: "Jean Secret", Copyright: "Cabinet Secret", ImageDescription: "GPS 48.8566 2.3522" } })
    .toBuffer();
const png = (width = 1200, height = 900) => canvas(width, height).png().toBuffer();
const webp = (width = 500, height = 500) => canvas(width, height).webp().toBuffer();
const SVG_WITH_SCRIPT = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script><rect width="10" height="10"/></svg>',
);

/** About 6.75 MB of incompressible pixels as a genuine PNG. */
async function sixMegabytePng() {
  const size = 1500;
  const out = await sharp(randomBytes(size * size * 3), { raw: { width: size, height: size, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
  expect(out.byteLength).toBeGreaterThan(6 * MB);
  return out;
}

async function member(membershipType: "premium" | "founding_member" | "freemium" = "premium") {
  return createMember(t.db!, { profile: { membershipType, profileStatus: "validated", onboardingStatus: "validated", logoUrl: null, photoUrl: null } });
}

async function profileOf(m: CreatedMember) {
  const [p] = await t.db!.select().from(profiles).where(eq(profiles.id, m.profile.id));
  return p;
}

function storedFile(url: string | null) {
  const key = keyFromPublicUrl(url);
  if (!key) throw new Error(`not one of our URLs: ${url}`);
  return path.join(root, key);
}

type UploadJson = { ok: true; kind: string; url: string } | { ok: false; title: string; description: string };

async function post(request: Request) {
  return (await uploadAction({ request, params: {}, context: { requestId: "test", nonce: "" } } as unknown as Parameters<typeof uploadAction>[0])) as Response;
}

function uploadRequest(cookie: string, file: { bytes: Uint8Array; name: string; type: string }, kind = "photo", accept = "application/json") {
  const form = new FormData();
  form.set("kind", kind);
  form.set("file", new File([new Uint8Array(file.bytes)], file.name, { type: file.type }));
  return new Request("http://localhost:3000/api/uploads", { method: "POST", body: form, headers: { cookie, accept } });
}

describe("prepareImage: type from the bytes, re-encoded to WebP", () => {
  it.each([
    ["JPEG", jpegWithExif, "jpeg"],
    ["PNG", () => png(), "png"],
    ["WebP", () => webp(), "webp"],
  ] as const)("accepts a real %s and writes a WebP within the limits", async (_name, make, sourceType) => {
    const out = await prepareImage(await make(), { maxWidth: 800, maxHeight: 800 });
    expect(out.sourceType).toBe(sourceType);
    expect(out.contentType).toBe("image/webp");
    const meta = await sharp(out.bytes).metadata();
    expect(meta.format).toBe("webp");
    expect(meta.width).toBeLessThanOrEqual(800);
    expect(meta.height).toBeLessThanOrEqual(800);
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
  });

  it("strips the EXIF of a JPEG (the source really had some)", async () => {
    const source = await jpegWithExif();
    expect((await sharp(source).metadata()).exif).toBeDefined();
    const out = await prepareImage(source, { maxWidth: 800, maxHeight: 800 });
    expect(out.bytes.includes(Buffer.from("Jean Secret"))).toBe(false);
    expect(out.bytes.includes(Buffer.from("Exif"))).toBe(false);
    // 1600×1200 fits inside 800×800 as 800×600 (aspect kept).
    expect([out.width, out.height]).toEqual([800, 600]);
  });

  it("never enlarges a small image", async () => {
    const out = await prepareImage(await webp(120, 80), { maxWidth: 600, maxHeight: 600 });
    expect([out.width, out.height]).toEqual([120, 80]);
  });

  it("refuses an SVG with a script as an unsupported type", async () => {
    await expect(prepareImage(SVG_WITH_SCRIPT, { maxWidth: 800, maxHeight: 800 })).rejects.toMatchObject({
      code: "unsupported",
      status: 415,
      title: "Type de fichier non supporté",
      description: "Veuillez sélectionner une image",
    });
  });

  it("refuses a truncated file behind a valid signature", async () => {
    const broken = (await png()).subarray(0, 200);
    await expect(prepareImage(broken, { maxWidth: 800, maxHeight: 800 })).rejects.toMatchObject({ code: "unsupported" });
  });

  it("refuses a 6 MB file with the default 5 MB limit, naming it", async () => {
    await expect(prepareImage(await sixMegabytePng(), { maxWidth: 800, maxHeight: 800 })).rejects.toMatchObject({
      code: "too-large",
      status: 413,
      title: "Fichier trop volumineux",
      description: "La taille du fichier ne doit pas dépasser 5\u00a0Mo",
    });
  });
});

describe("uploadProfileImage", () => {
  it("stores a WebP at {userId}/{timestamp}-{random}.webp and saves the URL on the profile", async () => {
    const m = await member();
    const before = await profileOf(m);
    const { url } = await uploadProfileImage(memberActor(m.profile), "photo", await jpegWithExif());
    const key = keyFromPublicUrl(url)!;
    expect(key).toMatch(new RegExp(`^${m.user.id}/\\d{13}-[0-9a-f]{12}\\.webp$`));
    expect(isSafeKey(key)).toBe(true);
    const after = await profileOf(m);
    expect(after.photoUrl).toBe(url);
    expect(after.logoUrl).toBeNull();
    expect(after.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());
    expect(after.searchText).toBe(profileSearchText(after));
    const stored = readFileSync(storedFile(url));
    const meta = await sharp(stored).metadata();
    expect(meta.format).toBe("webp");
    expect(meta.exif).toBeUndefined();
    expect(Math.max(meta.width, meta.height)).toBe(800);
  });

  it("caps logos at 600 pixels", async () => {
    const m = await member();
    const { url } = await uploadProfileImage(memberActor(m.profile), "logo", await png(1800, 900));
    const meta = await sharp(readFileSync(storedFile(url))).metadata();
    expect([meta.width, meta.height]).toEqual([600, 300]);
    expect((await profileOf(m)).logoUrl).toBe(url);
  });

  it("applies the profile editor's 2 MB limit, naming 2 Mo", async () => {
    const m = await member();
    const threeMb = await sharp(randomBytes(1000 * 1000 * 3), { raw: { width: 1000, height: 1000, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
    expect(threeMb.byteLength).toBeGreaterThan(2 * MB);
    await expect(uploadProfileImage(memberActor(m.profile), "photo", threeMb)).rejects.toMatchObject({
      title: "Fichier trop volumineux",
      description: "La taille du fichier ne doit pas dépasser 2\u00a0Mo",
    });
    expect((await profileOf(m)).photoUrl).toBeNull();
  });

  it("deletes the file it replaces, and the last one when the image is removed", async () => {
    const m = await member("founding_member");
    const actor = memberActor(m.profile);
    const first = await uploadProfileImage(actor, "logo", await png());
    const second = await uploadProfileImage(actor, "logo", await webp());
    expect(second.url).not.toBe(first.url);
    expect(existsSync(storedFile(first.url))).toBe(false);
    expect(existsSync(storedFile(second.url))).toBe(true);
    await removeProfileImage(actor, "logo");
    expect(existsSync(storedFile(second.url))).toBe(false);
    const p = await profileOf(m);
    expect(p.logoUrl).toBeNull();
    expect(p.searchText).toBe(profileSearchText(p));
  });

  it("never deletes a file outside the member's own folder", async () => {
    const owner = await member();
    const { url } = await uploadProfileImage(memberActor(owner.profile), "photo", await png());
    const other = await member();
    // A URL copied from someone else (e.g. by an admin fix-up) is replaced but not deleted.
    await t.db!.update(profiles).set({ photoUrl: url }).where(eq(profiles.id, other.profile.id));
    await uploadProfileImage(memberActor(other.profile), "photo", await webp());
    expect(existsSync(storedFile(url))).toBe(true);
  });

  it("refuses a freemium member (403), storing nothing", async () => {
    const m = await member("freemium");
    await expect(uploadProfileImage(memberActor(m.profile), "photo", await png())).rejects.toMatchObject({ code: "forbidden" });
    expect(existsSync(path.join(root, m.user.id))).toBe(false);
    // Even a stale actor claiming premium is stopped by the profile's own tier.
    await expect(uploadProfileImage({ ...memberActor(m.profile), membershipType: "premium" }, "photo", await png())).rejects.toMatchObject({ code: "forbidden" });
    expect((await profileOf(m)).photoUrl).toBeNull();
  });
});

describe("POST /api/uploads", () => {
  it("accepts a PNG named .jpg (decided by its bytes) and returns the URL", async () => {
    const m = await member();
    const res = await post(uploadRequest(await sessionCookie(m), { bytes: await png(), name: "portrait.jpg", type: "image/jpeg" }, "photo"));
    expect(res.status).toBe(200);
    const body = (await res.json()) as UploadJson;
    if (!body.ok) throw new Error(body.description);
    expect(body.kind).toBe("photo");
    expect(body.url).toMatch(/^\/uploads\/.+\.webp$/);
    expect((await profileOf(m)).photoUrl).toBe(body.url);
    expect((await sharp(readFileSync(storedFile(body.url))).metadata()).format).toBe("webp");
  });

  it("refuses an SVG with a script, even announced as a PNG", async () => {
    const m = await member();
    const res = await post(uploadRequest(await sessionCookie(m), { bytes: SVG_WITH_SCRIPT, name: "logo.png", type: "image/png" }, "logo"));
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ ok: false, title: "Type de fichier non supporté", description: "Veuillez sélectionner une image" });
    expect((await profileOf(m)).logoUrl).toBeNull();
  });

  it("refuses a 6 MB file with 413 and the 2MB message", async () => {
    const m = await member();
    const res = await post(uploadRequest(await sessionCookie(m), { bytes: await sixMegabytePng(), name: "big.png", type: "image/png" }));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ ok: false, title: "Fichier trop volumineux", description: "La taille du fichier ne doit pas dépasser 2\u00a0Mo" });
  });

  it("refuses a too-large Content-Length before reading the body", async () => {
    const m = await member();
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const request = new Request("http://localhost:3000/api/uploads", {
      method: "POST",
      body,
      duplex: "half",
      headers: { cookie: await sessionCookie(m), accept: "application/json", "content-type": "multipart/form-data; boundary=x", "content-length": String(6 * MB) },
    } as RequestInit);
    const res = await post(request);
    expect(res.status).toBe(413);
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it("stops reading a chunked body as soon as it passes the limit", async () => {
    let pulled = 0;
    const chunk = 256 * 1024;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        if (pulled > 40) controller.close(); // 10 MB if read to the end
        else controller.enqueue(new Uint8Array(chunk));
      },
    });
    const request = new Request("http://localhost/", { method: "POST", body, duplex: "half" } as RequestInit);
    const error = await readBodyWithLimit(request, 2 * MB, 2).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UploadError);
    expect(error).toMatchObject({ status: 413, description: "La taille du fichier ne doit pas dépasser 2\u00a0Mo" });
    expect(pulled).toBeLessThan(15);
  });

  it("refuses a freemium member with 403", async () => {
    const m = await member("freemium");
    const res = await post(uploadRequest(await sessionCookie(m), { bytes: await png(), name: "a.png", type: "image/png" }));
    expect(res.status).toBe(403);
    expect(((await res.json()) as UploadJson).ok).toBe(false);
    expect((await profileOf(m)).photoUrl).toBeNull();
  });

  it("refuses a request without a session", async () => {
    const request = uploadRequest("", { bytes: await png(), name: "a.png", type: "image/png" });
    await expect(post(request)).rejects.toMatchObject({ init: { status: 401 } });
  });

  it("without JavaScript, redirects back to the profile tab with a toast", async () => {
    const m = await member();
    const ok = await post(uploadRequest(await sessionCookie(m), { bytes: await webp(), name: "a.webp", type: "image/webp" }, "logo", "text/html"));
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe("/dashboard/profil");
    expect(ok.headers.get("set-cookie")).toContain("rt_toast=");
    const bad = await post(uploadRequest(await sessionCookie(m), { bytes: SVG_WITH_SCRIPT, name: "a.svg", type: "image/svg+xml" }, "logo", "text/html"));
    expect(bad.status).toBe(302);
    expect(bad.headers.get("set-cookie")).toContain("rt_toast=");
  });
});

describe("GET /uploads/*", () => {
  const get = (key: string) =>
    fileLoader({ params: { "*": key }, request: new Request(`http://localhost:3000/uploads/${key}`) } as unknown as Parameters<typeof fileLoader>[0]);

  // nosniff comes from server.ts on every response (checked by the browser test).
  it("serves a stored image as WebP, immutable for a year", async () => {
    const m = await member();
    const { url } = await uploadProfileImage(memberActor(m.profile), "photo", await png());
    const res = await get(keyFromPublicUrl(url)!);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/webp");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).format).toBe("webp");
  });

  it.each(["../secret.key", "..%2Fsecret.key", "abc/../../secret.key", "abc/missing.webp", "abc/file.svg", "/etc/passwd", ""])(
    "answers 404 for %s",
    async (key) => {
      expect((await get(key)).status).toBe(404);
    },
  );
});

describe("profile images on the database driver (PostgreSQL mode)", () => {
  const get = (key: string) =>
    fileLoader({ params: { "*": key }, request: new Request(`http://localhost:3000/uploads/${key}`) } as unknown as Parameters<typeof fileLoader>[0]);

  it("stores, serves, replaces and deletes them in stored_objects, under the same public URLs", async () => {
    const local = getStorage();
    setStorage(createDatabaseStorage());
    try {
      const m = await member();
      const actor = memberActor(m.profile);
      const first = await uploadProfileImage(actor, "photo", await png());
      expect(first.url).toMatch(/^\/uploads\/.+\.webp$/);
      const key = keyFromPublicUrl(first.url)!;
      const [row] = await t.db!.select().from(storedObjects).where(eq(storedObjects.key, key));
      expect(row).toMatchObject({ contentType: "image/webp", sizeBytes: row.bytes.byteLength });
      expect(existsSync(path.join(root, key))).toBe(false);
      const res = await get(key);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/webp");
      expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).format).toBe("webp");
      // A replacement deletes the old row; removing the image deletes the last one.
      const second = await uploadProfileImage(actor, "photo", await webp());
      expect(await t.db!.select().from(storedObjects).where(eq(storedObjects.key, key))).toEqual([]);
      expect((await get(key)).status).toBe(404);
      await removeProfileImage(actor, "photo");
      expect(await t.db!.select().from(storedObjects).where(eq(storedObjects.key, keyFromPublicUrl(second.url)!))).toEqual([]);
    } finally {
      setStorage(local);
    }
  });

  it("never serves a private document key under /uploads/", async () => {
    const key = "documents/0b7e6f0a-0000-4000-8000-000000000000/abc.webp";
    await getStorage().putObject(key, await webp(), "image/webp");
    expect((await get(key)).status).toBe(404);
  });
});
