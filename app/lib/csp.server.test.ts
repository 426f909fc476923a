import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, scriptHash } from "./csp.server";

describe("contentSecurityPolicy", () => {
  it("allows the scripts it names and loads the app's modules through them only", () => {
    const policy = contentSecurityPolicy(["'nonce-abc'"], { formAction: ["'self'"], https: false });
    expect(policy).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(/script-src [^;]*/.exec(policy)?.[0]).not.toContain("unsafe");
    expect(policy).not.toContain("upgrade-insecure-requests");
    expect(contentSecurityPolicy([], { formAction: ["'self'"], https: true })).toContain("upgrade-insecure-requests");
  });
});

describe("scriptHash", () => {
  it("is the base64 SHA-256 of the script's text, as browsers compute it", () => {
    expect(scriptHash("alert(1)")).toBe(`'sha256-${createHash("sha256").update("alert(1)").digest("base64")}'`);
    expect(scriptHash("é")).toBe("'sha256-" + createHash("sha256").update(Buffer.from("é", "utf8")).digest("base64") + "'");
  });
});
