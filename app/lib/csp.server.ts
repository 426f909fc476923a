// The Content-Security-Policy of every page (server.ts). Scripts run only when the policy names
// them: a rendered page by its response's nonce, a page served from the page cache by the SHA-256
// hashes of its inline scripts (app/lib/page-cache.server.ts); 'strict-dynamic' lets those load
// the app's modules.
import { createHash } from "node:crypto";

export type CspOptions = { formAction: readonly string[]; https: boolean };

/** The policy whose script-src allows `scriptSources` ('nonce-…' or 'sha256-…') and no inline script else. */
export function contentSecurityPolicy(scriptSources: readonly string[], options: CspOptions): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${scriptSources.join(" ")} 'strict-dynamic'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action ${options.formAction.join(" ")}`,
    "frame-ancestors 'none'",
    ...(options.https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** A script-src source allowing an inline script whose text is exactly `text`. */
export function scriptHash(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}
