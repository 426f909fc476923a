// The bench's admin helpers (scripts/bench/admin.ts, issue 17): the pages measured, the secret
// read from the settings page, the cookie jar of the two sign-in steps, and the TOTP codes the
// bench computes (tests/support/totp.ts) agreeing with the ones the server checks.
import { describe, expect, it } from "vitest";
import { hotp } from "~/auth/totp-replay.server";
import { otpauthUri } from "~/features/account/totp";
import { secretFromOtpauthUri, totpCode } from "../../tests/support/totp";
import { adminPages, benchAdminEmail, mergeCookies, otpauthUriOf } from "./admin";

describe("admin pages", () => {
  it("lists every admin tab with a list, then one applicant and one mediation when there are some", () => {
    const pages = adminPages({ applicantId: "a1", mediationId: "m1", commonWord: "Martin" });
    expect(pages.map((p) => p.path)).toEqual([
      "/admin",
      "/admin?statut=en-attente",
      "/admin?q=Martin",
      "/admin?profil=a1",
      "/admin/deals",
      "/admin/recommandations",
      "/admin/mediations",
      "/admin/mediations/m1",
      "/admin/evaluations",
      "/admin/journal",
    ]);
    expect(new Set(pages.map((p) => p.key)).size).toBe(pages.length);
    const without = adminPages({ applicantId: null, mediationId: null, commonWord: "Le Gall" });
    expect(without.map((p) => p.path)).not.toContain("/admin/mediations/m1");
    expect(without).toHaveLength(pages.length - 2);
    expect(without[2]!.path).toBe("/admin?q=Le%20Gall");
  });

  it("gives each administrator its own address", () => {
    expect(benchAdminEmail(0)).not.toBe(benchAdminEmail(1));
    expect(benchAdminEmail(3)).toMatch(/^admin-bench-3@/);
  });
});

describe("two-factor sign-in", () => {
  it("reads the otpauth:// URI the settings page shows, entities decoded", () => {
    const uri = otpauthUri({ issuer: "Réseau Transmission", account: "admin-bench-1@bench.reseau-transmission.fr", secret: "raw-secret-of-better-auth" });
    const html = `<details><summary>Afficher</summary><code class="mt-1 block break-all" data-testid="totp-uri" translate="no">${uri.replace(/&/g, "&amp;")}</code></details>`;
    expect(otpauthUriOf(html)).toBe(uri);
    expect(otpauthUriOf("<p>Double authentification activée</p>")).toBeNull();
  });

  it("computes the code the server expects from the URI's secret", () => {
    const raw = "Zx81kQp0LmNvB2cd";
    const secret = secretFromOtpauthUri(otpauthUri({ issuer: "RT", account: "a@b.fr", secret: raw }));
    const at = Date.UTC(2026, 10, 26, 4, 0, 0);
    // app/auth/totp-replay.server.ts: better-auth's algorithm, the raw secret as the key.
    expect(totpCode(secret, at)).toBe(hotp(raw, Math.floor(at / 30_000)));
    expect(totpCode(secret, at + 30_000)).toBe(hotp(raw, Math.floor(at / 30_000) + 1));
  });

  it("keeps a cookie jar across the two steps: replaced, added, and removed when emptied", () => {
    const pending = mergeCookies("", ["rt.two_factor=abc.sig", "rt_device=dev1"]);
    expect(pending).toBe("rt.two_factor=abc.sig; rt_device=dev1");
    expect(mergeCookies(pending, ["rt.session_token=tok.sig", "rt.two_factor=", "rt_device=dev2"])).toBe("rt_device=dev2; rt.session_token=tok.sig");
  });
});
