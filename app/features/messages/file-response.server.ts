// The answers of the resource routes that serve private files (insurance certificates, mediation
// attachments): the bytes streamed from storage (verified against their recorded SHA-256 as they
// go), never cached.
import { webBody, type ObjectStream } from "~/lib/storage/storage.server";

export type PrivateFile = { object: ObjectStream; contentType: string; disposition: string };

export function privateFileResponse(file: PrivateFile): Response {
  return new Response(webBody(file.object), {
    headers: {
      "content-type": file.contentType,
      "content-length": String(file.object.contentLength),
      "content-disposition": file.disposition,
      "cache-control": "private, no-store",
    },
  });
}

