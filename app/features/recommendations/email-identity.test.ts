import { describe, expect, it } from "vitest";
import { emailIdentity, sameMailbox, sharesPrivateDomain } from "./email-identity";

describe("emailIdentity", () => {
  it.each([
    ["eve@cabinet.fr", "eve@cabinet.fr"],
    ["EVE@Cabinet.FR", "eve@cabinet.fr"],
    ["eve+s1@cabinet.fr", "eve@cabinet.fr"],
    ["EVE+S2@cabinet.fr", "eve@cabinet.fr"],
    [" eve+a+b@cabinet.fr ", "eve@cabinet.fr"],
    ["e.ve@cabinet.fr", "e.ve@cabinet.fr"],
    ["E.Ve+x@GMail.com", "eve@gmail.com"],
    ["eve@googlemail.com", "eve@gmail.com"],
    ["+eve@cabinet.fr", "+eve@cabinet.fr"],
  ])("%s → %s", (input, identity) => expect(emailIdentity(input)).toBe(identity));

  it.each([
    ["eve@cabinet.fr", "eve+parrain@cabinet.fr", true],
    ["eve.martin@gmail.com", "evemartin+2@googlemail.com", true],
    ["eve.martin@cabinet.fr", "evemartin@cabinet.fr", false],
    ["eve@cabinet.fr", "eve@cabinet.com", false],
  ])("%s and %s are one mailbox: %s", (a, b, same) => expect(sameMailbox(a, b)).toBe(same));
});

describe("sharesPrivateDomain", () => {
  it.each([
    ["eve@cabinet-martin.fr", "paul@cabinet-martin.fr", true],
    ["eve@cabinet-martin.fr", "paul@CABINET-MARTIN.FR", true],
    ["eve@cabinet-martin.fr", "paul@autre-cabinet.fr", false],
    ["eve@gmail.com", "paul@gmail.com", false],
    ["eve@orange.fr", "paul@orange.fr", false],
  ])("%s / %s → %s", (a, b, flagged) => expect(sharesPrivateDomain(a, b)).toBe(flagged));
});
