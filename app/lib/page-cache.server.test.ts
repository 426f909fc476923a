import { describe, expect, it } from "vitest";
import { hasAppCookie, isCacheablePath, personalise } from "./page-cache.server";

const page = (body: string, nonce = "N0NCE", requestId = "REQ-1") => ({ status: 200, headers: { "content-type": "text/html" }, body, nonce, requestId });

describe("isCacheablePath", () => {
  it.each([
    ["/", true],
    ["/annuaire", true],
    ["/consultant/jean-dupont-avocat-0f8fad5b", true],
    ["/faq", true],
    ["/cgu", true],
    ["/consultant/x.data", false],
    ["/annuaire.data", false],
    ["/consultant/", false],
    ["/consultant/a/b", false],
    ["/dashboard", false],
    ["/admin", false],
    ["/auth", false],
    ["/onboarding", false],
    ["/dev/mailbox", false],
    ["/api/auth/get-session", false],
    ["/parametres", false],
    ["/premium", false],
  ])("%s → %s", (path, expected) => {
    expect(isCacheablePath(path)).toBe(expected);
  });
});

describe("hasAppCookie", () => {
  it.each([
    [undefined, false],
    ["", false],
    ["theme=dark", false],
    ["rt.session_token=abc", true],
    ["a=1; rt.session_token=abc", true],
    ["__Secure-rt.session_token=abc", true],
    ["rt_toast=xyz", true],
    ["a=1;rt.two_factor=1", true],
    ["smart.session=1", false],
    ["art_toast=1", false],
  ])("%s → %s", (header, expected) => {
    expect(hasAppCookie(header)).toBe(expected);
  });
});

describe("personalise", () => {
  it("puts the current nonce and request id in place of the stored ones", () => {
    const cached = { ...page('<script nonce="OLD">x</script><p>REQ-OLD</p><script nonce="OLD"></script>', "OLD", "REQ-OLD"), bytes: 0 };
    expect(personalise(cached, "NEW", "REQ-NEW")).toBe('<script nonce="NEW">x</script><p>REQ-NEW</p><script nonce="NEW"></script>');
  });
});
