// GET /uploads/{key}: stored images (logos and photos). No guard: public by design, they are
// shown on public profiles; names are random and unguessable. File names never change content
// (a new upload gets a new name), so browsers and proxies may keep them for a year.
// X-Content-Type-Options: nosniff is set on every response by server.ts (repeating it here
// would send it twice, as the adapter appends headers).
import { isPrivateKey } from "~/lib/storage/keys";
import { getStorage, isSafeKey, webBody } from "~/lib/storage/storage.server";
import type { Route } from "./+types/uploads-file";

function notFound() {
  return new Response("Fichier introuvable", {
    status: 404,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
}

export async function loader({ params }: Route.LoaderArgs) {
  const key = params["*"] ?? "";
  // Only the WebP files this app writes are served, whatever else the folder might hold; the
  // documents of collaboration files never are (their own route checks the file's membership).
  if (!isSafeKey(key) || !key.endsWith(".webp") || isPrivateKey(key)) return notFound();
  // Streamed as read (and verified: a corrupted object fails before its last byte is sent).
  const object = await getStorage().openObject(key);
  if (!object) return notFound();
  return new Response(webBody(object), {
    headers: {
      "content-type": "image/webp",
      "content-length": String(object.contentLength),
      "cache-control": "public, max-age=31536000, immutable",
      "content-disposition": "inline",
    },
  });
}
