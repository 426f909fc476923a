import { createOTP } from "@better-auth/utils/otp";
import { describe, expect, it } from "vitest";
import { base32Encode, groupSecret, otpauthUri, secretOfOtpauthUri } from "./totp";

const enc = (s: string) => base32Encode(new TextEncoder().encode(s));

describe("base32Encode", () => {
  // RFC 4648 §10 test vectors, without padding.
  it.each([
    ["", ""],
    ["f", "MY"],
    ["fo", "MZXQ"],
    ["foo", "MZXW6"],
    ["foob", "MZXW6YQ"],
    ["fooba", "MZXW6YTB"],
    ["foobar", "MZXW6YTBOI"],
  ])("%j → %j", (input, expected) => {
    expect(enc(input)).toBe(expected);
  });
});

describe("otpauthUri", () => {
  it("is the URI better-auth gives when the factor is created", () => {
    const secret = "Ab3dEf7hIj9lMn0pQr5tUv1xYz2aBc4d";
    const ours = otpauthUri({ issuer: "Réseau Transmission", account: "claire@exemple.fr", secret });
    const theirs = createOTP(secret, { digits: 6, period: 30 }).url("Réseau Transmission", "claire@exemple.fr");
    expect(ours).toBe(theirs);
  });

  it("round-trips its base32 secret", () => {
    const uri = otpauthUri({ issuer: "RT", account: "a@b.fr", secret: "foobar" });
    expect(secretOfOtpauthUri(uri)).toBe("MZXW6YTBOI");
  });
});

describe("secretOfOtpauthUri", () => {
  it.each([
    ["https://exemple.fr/?secret=ABC", null],
    ["otpauth://totp/RT:a", null],
    ["otpauth://totp/RT:a?secret=abc", null],
    ["otpauth://totp/RT:a?issuer=RT&secret=MZXW6", "MZXW6"],
  ])("%s → %s", (uri, expected) => {
    expect(secretOfOtpauthUri(uri)).toBe(expected);
  });
});

describe("groupSecret", () => {
  it.each([
    ["", ""],
    ["ABC", "ABC"],
    ["ABCDEFGHIJ", "ABCD EFGH IJ"],
  ])("%j → %j", (input, expected) => {
    expect(groupSecret(input)).toBe(expected);
  });
});
