// The one answer of the resource routes that hand a member a private file (a document, a sealed
// PDF, an export, an archive): never cached, its length when known, its SHA-256 when the caller
// recorded one.
import { webBody, type ObjectStream } from "~/lib/storage/storage.server";

export type DownloadBody =
  | { object: ObjectStream }
  | { bytes: Uint8Array | Buffer }
  | { stream: ReadableStream<Uint8Array> };

export type DownloadHead = {
  contentType: string;
  disposition: string;
  /** Hex SHA-256 of the bytes, sent as X-Content-SHA256. */
  sha256?: string;
  headers?: Record<string, string>;
};

export function privateDownload(body: DownloadBody, head: DownloadHead): Response {
  const headers: Record<string, string> = {
    "content-type": head.contentType,
    "content-disposition": head.disposition,
    "cache-control": "private, no-store",
  };
  let payload: BodyInit;
  if ("object" in body) {
    payload = webBody(body.object);
    headers["content-length"] = String(body.object.contentLength);
  } else if ("bytes" in body) {
    payload = new Uint8Array(body.bytes);
    headers["content-length"] = String(body.bytes.byteLength);
  } else {
    payload = body.stream;
  }
  if (head.sha256) headers["x-content-sha256"] = head.sha256;
  return new Response(payload, { headers: { ...headers, ...head.headers } });
}

/** A stored object with its type and disposition (insurance certificates, attachments, documents). */
export type PrivateFile = { object: ObjectStream; contentType: string; disposition: string };

export const privateFileResponse = (file: PrivateFile): Response =>
  privateDownload({ object: file.object }, { contentType: file.contentType, disposition: file.disposition });
