import { describe, expect, it } from "vitest";
import { sealMention, signingP12Source, testCertificateSubject, timestampAnswerProblem } from "./seal-rules";

const p12 = Buffer.concat([Buffer.from([0x30, 0x82]), Buffer.alloc(60, 7)]).toString("base64");

describe("SIGNING_P12: a path or the PKCS#12 in base64", () => {
  it.each([
    ["/run/secrets/seal.p12", "path"],
    ["./data/seal.p12", "path"],
    [p12, "base64"],
    [`${p12.slice(0, 40)}\n${p12.slice(40)}`, "base64"],
    ["seal.p12", "invalid"],
    ["not base64 at all, too short", "invalid"],
    [Buffer.alloc(62, 1).toString("base64"), "invalid"],
  ])("%s → %s", (value, kind) => expect(signingP12Source(value).kind).toBe(kind));
});

describe("the test certificate and the visible mention say « certificat de test »", () => {
  it("subject", () => {
    const s = testCertificateSubject("Réseau Transmission");
    expect(s.commonName).toContain("certificat de test");
    expect(s.organization).toContain("sans valeur probante");
  });
  it.each([
    [true, true],
    [false, false],
  ])("test=%s → mentions the test certificate: %s", (test, mentions) => {
    const text = sealMention({ appName: "Réseau", holder: "Réseau SAS", test });
    expect(text).toContain("scellé électroniquement");
    expect(text.includes("CERTIFICAT DE TEST")).toBe(mentions);
  });
});

describe("a timestamp authority's answer", () => {
  const imprint = new Uint8Array([1, 2, 3]);
  const sent = { imprint, nonce: 42n };
  it.each([
    [{ status: 0, imprint, nonce: 42n }, null],
    [{ status: 1, imprint, nonce: 42n }, null],
    [{ status: 2, imprint: null, nonce: null }, "status 2"],
    [{ status: 0, imprint: new Uint8Array([1, 2, 4]), nonce: 42n }, "message imprint differs"],
    [{ status: 0, imprint, nonce: 41n }, "nonce differs"],
    [{ status: 0, imprint, nonce: null }, "nonce differs"],
  ])("%o → %s", (answer, problem) => expect(timestampAnswerProblem(answer, sent)).toBe(problem));
});
