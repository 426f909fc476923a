import { describe, expect, it } from "vitest";
import { isSendableEmail, MAX_EMAIL_LENGTH } from "./email-address";

describe("isSendableEmail: the addresses the outbox will mail", () => {
  it.each([
    ["eve@domaine.fr", true],
    ["Eve.Martin@Domaine.FR", true],
    ["eve+notaire@domaine.fr", true],
    ["o'neil@domaine.fr", true],
    ["eve@sous.domaine.fr", true],
    ["eve_x-y@domaine-ab.fr", true],
    // Quoted local parts and comments: valid for RFC 5322, refused by the outbox.
    ['"eve"@domaine.fr', false],
    ['"eve martin"@domaine.fr', false],
    ["eve(x)@domaine.fr", false],
    ["(x)eve@domaine.fr", false],
    ["eve@domaine.fr(x)", false],
    ["Eve <eve@domaine.fr>", false],
    ["eve@[192.0.2.1]", false],
    ["eve@domaine", false],
    ["eve", false],
    ["eve@@domaine.fr", false],
    ["eve..martin@domaine.fr", false],
    [".eve@domaine.fr", false],
    ["eve.@domaine.fr", false],
    ["ève@domaine.fr", false],
    ["eve@domaine.fr\r\nBcc: x@y.fr", false],
    ["eve martin@domaine.fr", false],
    ["eve,marc@domaine.fr", false],
    ["eve;marc@domaine.fr", false],
    ["eve\\@domaine.fr", false],
    ["", false],
  ])("%j → %s", (address, expected) => {
    expect(isSendableEmail(address)).toBe(expected);
  });

  it("refuses an address longer than a forward path", () => {
    const domain = "@domaine.fr";
    expect(isSendableEmail(`${"a".repeat(60)}.${"b".repeat(MAX_EMAIL_LENGTH - 61 - domain.length)}${domain}`)).toBe(true);
    expect(isSendableEmail(`${"a".repeat(60)}.${"b".repeat(MAX_EMAIL_LENGTH - 60 - domain.length)}${domain}`)).toBe(false);
  });
});
