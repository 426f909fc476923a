// The seal's identity and failure modes, on the real libraries and OpenSSL.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PDFDocument } from "pdf-lib";
import { afterAll, describe, expect, it } from "vitest";
import { EnvError, getEnv, parseEnv } from "~/lib/env.server";
import { getSealIdentity } from "./seal-identity.server";
import { sealPdf } from "./seal.server";
import { TimestampUnavailableError, type TimestampAuthority } from "./timestamp.server";

const dir = mkdtempSync(path.join(os.tmpdir(), "rt-seal-unit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A PKCS#12 as OpenSSL 3 writes it by default (AES-256, PBKDF2, SHA-256 MAC). */
function opensslP12(password: string): string {
  const file = path.join(dir, `${password}.p12`);
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "30", "-subj", "/CN=Cachet Exploitant SAS/O=Exploitant SAS", "-keyout", `${file}.key`, "-out", `${file}.crt`], { stdio: "ignore" });
  execFileSync("openssl", ["pkcs12", "-export", "-inkey", `${file}.key`, "-in", `${file}.crt`, "-out", file, "-passout", `pass:${password}`], { stdio: "ignore" });
  return file;
}

const envWith = (raw: Record<string, string>) => parseEnv({ DATA_DIR: dir, ...raw });

describe("SIGNING_P12", () => {
  it("reads the operator's PKCS#12 from a path or from base64", async () => {
    const file = opensslP12("s3cret");
    const byPath = await getSealIdentity(envWith({ SIGNING_P12: file, SIGNING_P12_PASSWORD: "s3cret" }));
    expect(byPath).toMatchObject({ holder: "Cachet Exploitant SAS", test: false });
    const byValue = await getSealIdentity(envWith({ SIGNING_P12: readFileSync(file).toString("base64"), SIGNING_P12_PASSWORD: "s3cret" }));
    expect(byValue.certificates).toHaveLength(1);
  });

  it.each([
    ["a wrong password", () => ({ SIGNING_P12: opensslP12("right"), SIGNING_P12_PASSWORD: "wrong" }), "SIGNING_P12_PASSWORD"],
    ["a missing file", () => ({ SIGNING_P12: "/nonexistent/seal.p12" }), "SIGNING_P12 : fichier illisible"],
    ["not a PKCS#12", () => ({ SIGNING_P12: Buffer.concat([Buffer.from([0x30, 0x03]), Buffer.alloc(80, 1)]).toString("base64") }), "SIGNING_P12"],
    ["neither a path nor base64", () => ({ SIGNING_P12: "seal.p12" }), "SIGNING_P12 : doit être le chemin"],
  ])("stops the start on %s, naming the variable", async (_case, raw, named) => {
    const attempt = getSealIdentity(envWith(raw()));
    await expect(attempt).rejects.toThrow(EnvError);
    await expect(attempt).rejects.toThrow(named);
  });

  it("without it, outside a public deployment: one generated test certificate, kept in DATA_DIR", async () => {
    const first = await getSealIdentity(envWith({}));
    expect(first.test).toBe(true);
    expect(first.holder).toContain("certificat de test");
    expect(readFileSync(path.join(dir, "signing", "test-seal.p12")).length).toBeGreaterThan(1000);
  });
});

describe("an unreachable timestamp authority", () => {
  it("gives no sealed copy: TimestampUnavailableError after one retry", async () => {
    let calls = 0;
    const down: TimestampAuthority = async () => {
      calls++;
      throw new Error("ECONNREFUSED");
    };
    const doc = await PDFDocument.create();
    doc.addPage();
    const identity = await getSealIdentity({ ...getEnv(), DATA_DIR: dir, SIGNING_P12: undefined });
    await expect(sealPdf(doc, { reason: "essai", signingTime: new Date(), identity, authority: down })).rejects.toThrow(TimestampUnavailableError);
    expect(calls).toBe(2);
  });

  it("an authority refusing (status 2) is refused too", async () => {
    const refusing: TimestampAuthority = async () => new Uint8Array([0x30, 0x05, 0x30, 0x03, 0x02, 0x01, 0x02]);
    const doc = await PDFDocument.create();
    doc.addPage();
    const identity = await getSealIdentity({ ...getEnv(), DATA_DIR: dir, SIGNING_P12: undefined });
    await expect(sealPdf(doc, { reason: "essai", signingTime: new Date(), identity, authority: refusing })).rejects.toThrow(/status 2/);
  });
});
