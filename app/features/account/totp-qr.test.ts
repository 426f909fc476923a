import { describe, expect, it } from "vitest";
import { totpQrSvg } from "./totp-qr.server";

describe("totpQrSvg", () => {
  it("is an SVG of paths only: the URI (and its secret) is not written as text", async () => {
    const uri = "otpauth://totp/R%C3%A9seau%20Transmission:claire%40exemple.fr?secret=MZXW6YTBOI&issuer=R%C3%A9seau%20Transmission&digits=6&period=30";
    const svg = await totpQrSvg(uri);
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain("viewBox");
    expect(svg).not.toContain("MZXW6YTBOI");
    expect(svg).not.toMatch(/<(script|text|foreignObject|image)/i);
  });

  it("differs from one secret to another", async () => {
    const a = await totpQrSvg("otpauth://totp/RT:a?secret=AAAAAAAA&issuer=RT");
    const b = await totpQrSvg("otpauth://totp/RT:a?secret=BBBBBBBB&issuer=RT");
    expect(a).not.toBe(b);
  });
});
