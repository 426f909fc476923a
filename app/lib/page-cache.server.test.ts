import { describe, expect, it } from "vitest";
import { scriptHash } from "./csp.server";
import { hasAppCookie, isCacheablePath, pickEncoding, storedForm } from "./page-cache.server";

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

describe("storedForm", () => {
  it("takes out the nonce and the request id, and hashes each inline script as stored", () => {
    const html = '<link rel="modulepreload" href="/a.js" nonce="N0NCE"/><script nonce="N0NCE">x("REQ-1")</script><p>REQ-1</p><script nonce="N0NCE" type="module">y</script><script nonce="N0NCE">x("REQ-1")</script>';
    const form = storedForm(html, "N0NCE", "REQ-1");
    expect(form?.html).toBe('<link rel="modulepreload" href="/a.js"/><script>x("")</script><p></p><script type="module">y</script><script>x("")</script>');
    expect(form?.scriptHashes).toEqual([scriptHash('x("")'), scriptHash("y")]);
  });

  it("keeps no page with an external script or a nonce left anywhere else", () => {
    expect(storedForm('<script src="/a.js"></script>', "N", "R")).toBeUndefined();
    expect(storedForm("<p>N0NCE</p>", "N0NCE", "R")).toBeUndefined();
  });
});

describe("pickEncoding", () => {
  it.each([
    [undefined, undefined],
    ["", undefined],
    ["identity", undefined],
    ["gzip", "gzip"],
    ["gzip, deflate, br, zstd", "br"],
    ["br;q=0.5, gzip", "gzip"],
    ["br;q=0, gzip;q=0", undefined],
    ["deflate", undefined],
    ["*", "br"],
    ["*;q=0.2, gzip;q=0.8", "gzip"],
  ])("%s → %s", (header, expected) => {
    expect(pickEncoding(header)).toBe(expected);
  });
});
