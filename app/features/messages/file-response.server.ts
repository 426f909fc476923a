// The answers of the resource routes that serve private files (insurance certificates, mediation
// attachments): the bytes streamed from storage (verified against their recorded SHA-256 as they
// go), never cached; or an expected failure as plain French text (a 404 for whoever may not see
// the file), since a resource route has no error page.
import { webBody, type ObjectStream } from "~/lib/storage/storage.server";
import { expectedMessage, expectedStatus } from "./errors";

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

/** The plain-text answer of an expected failure; an unexpected error is thrown again. */
export function expectedFailureResponse(error: unknown, fallback: string): Response {
  const status = expectedStatus(error);
  if (status === null) throw error;
  return new Response(expectedMessage(error, fallback), {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
}
