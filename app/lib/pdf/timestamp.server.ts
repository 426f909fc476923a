// RFC 3161 timestamps for the platform's seal: asked of the operator's timestamp
// authority (TSA_URL) over HTTP, or, outside a public deployment without TSA_URL, of a test
// authority run by OpenSSL (`openssl ts -reply`) with a test certificate kept in DATA_DIR/signing.
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { getEnv, type Env } from "~/lib/env.server";
import { timestampAnswerProblem } from "./seal-rules";

const run = promisify(execFile);
const SHA256_OID = "2.16.840.1.101.3.4.2.1";
const TSA_TIMEOUT_MS = 15_000;

/** The timestamp authority could not give a usable token: nothing is claimed sealed. */
export class TimestampUnavailableError extends Error {}

/** A TSA: answers the DER of a TimeStampReq with the DER of a TimeStampResp. */
export type TimestampAuthority = (request: Uint8Array) => Promise<Uint8Array>;

export function httpAuthority(url: string): TimestampAuthority {
  return async (request) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/timestamp-query", accept: "application/timestamp-reply" },
      body: Buffer.from(request),
      signal: AbortSignal.timeout(TSA_TIMEOUT_MS),
    });
    if (!response.ok) throw new TimestampUnavailableError(`TSA answered HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  };
}

/** Paths of the test authority's key, certificate and OpenSSL configuration. */
export function testAuthorityFiles(dataDir: string): { dir: string; key: string; cert: string; config: string } {
  const dir = path.resolve(dataDir, "signing");
  return { dir, key: path.join(dir, "test-tsa.key"), cert: path.join(dir, "test-tsa.crt"), config: path.join(dir, "test-tsa.cnf") };
}

/** Creates the test authority's certificate (critical timeStamping usage) once. */
export async function ensureTestAuthority(dataDir: string, appName: string): Promise<ReturnType<typeof testAuthorityFiles>> {
  const files = testAuthorityFiles(dataDir);
  if (existsSync(files.cert) && existsSync(files.config)) return files;
  mkdirSync(files.dir, { recursive: true });
  const work = mkdtempSync(path.join(files.dir, "tsa-"));
  try {
    await run("openssl", [
      "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256", "-days", "3650",
      "-keyout", path.join(work, "k"), "-out", path.join(work, "c"),
      "-subj", `/C=FR/O=${appName.replace(/[/=+]/g, " ")}/CN=Autorité d’horodatage de test`, "-utf8",
      "-addext", "extendedKeyUsage=critical,timeStamping",
      "-addext", "keyUsage=critical,digitalSignature",
      "-addext", "basicConstraints=critical,CA:false",
    ]);
    writeFileSync(files.key, readFileSync(path.join(work, "k")), { mode: 0o600 });
    writeFileSync(files.cert, readFileSync(path.join(work, "c")));
    writeFileSync(files.config, [
      "[ tsa ]", "default_tsa = tsa_config", "[ tsa_config ]",
      `signer_cert = ${files.cert}`, `signer_key = ${files.key}`, "signer_digest = sha256",
      "default_policy = 1.3.6.1.4.1.99999.1.1", "digests = sha256, sha384, sha512",
      "accuracy = secs:1", "ordering = no", "tsa_name = yes", "ess_cert_id_chain = no", "ess_cert_id_alg = sha256", "",
    ].join("\n"));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return files;
}

/** The test authority: OpenSSL answers each request, with a random serial of its own. */
export function opensslAuthority(dataDir: string, appName: string): TimestampAuthority {
  return async (request) => {
    const files = await ensureTestAuthority(dataDir, appName);
    const work = mkdtempSync(path.join(tmpdir(), "tsa-"));
    try {
      const serial = path.join(work, "serial");
      writeFileSync(serial, `${randomBytes(8).toString("hex")}\n`);
      // A copy of the configuration naming this call's serial file: concurrent calls never share one.
      const config = path.join(work, "cnf");
      writeFileSync(config, `${readFileSync(files.config, "utf8")}serial = ${serial}\n`);
      writeFileSync(path.join(work, "q"), request);
      await run("openssl", ["ts", "-reply", "-config", config, "-section", "tsa_config", "-queryfile", path.join(work, "q"), "-out", path.join(work, "r")]);
      return new Uint8Array(readFileSync(path.join(work, "r")));
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  };
}

/** The authority of this environment (TSA_URL, else the test one outside a public deployment). */
export function currentAuthority(env: Env = getEnv()): TimestampAuthority {
  if (env.TSA_URL) return httpAuthority(env.TSA_URL);
  return opensslAuthority(env.DATA_DIR, env.APP_NAME);
}

/**
 * An RFC 3161 timestamp token (a CMS ContentInfo) over `data`'s SHA-256, checked against the
 * request (status, imprint, nonce); TimestampUnavailableError when none could be had.
 */
export async function timestampToken(data: Uint8Array, authority: TimestampAuthority): Promise<pkijs.ContentInfo> {
  const imprint = createHash("sha256").update(data).digest();
  const nonce = BigInt(`0x${randomBytes(8).toString("hex")}`) & 0x7fffffffffffffffn;
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: SHA256_OID }),
      hashedMessage: new asn1js.OctetString({ valueHex: imprint }),
    }),
    nonce: asn1js.Integer.fromBigInt(nonce),
    certReq: true,
  });
  let answer: Uint8Array | undefined;
  let lastError: unknown;
  // One retry: a TSA's passing hiccup should not refuse a member's signature.
  for (let attempt = 0; attempt < 2 && !answer; attempt++) {
    try {
      answer = await authority(new Uint8Array(request.toSchema().toBER()));
    } catch (error) {
      lastError = error;
    }
  }
  if (!answer) throw new TimestampUnavailableError(`timestamp authority unreachable: ${lastError instanceof Error ? lastError.message : String(lastError)}`);
  let response: pkijs.TimeStampResp;
  try {
    response = pkijs.TimeStampResp.fromBER(Buffer.from(answer));
  } catch (error) {
    throw new TimestampUnavailableError(`timestamp authority answer unreadable: ${String(error)}`);
  }
  const token = response.timeStampToken;
  let info: pkijs.TSTInfo | null = null;
  if (token) {
    const signed = new pkijs.SignedData({ schema: token.content });
    const content = signed.encapContentInfo.eContent;
    if (content) info = pkijs.TSTInfo.fromBER(content.getValue());
  }
  const problem = timestampAnswerProblem(
    {
      status: response.status.status,
      imprint: info ? new Uint8Array(info.messageImprint.hashedMessage.valueBlock.valueHexView) : null,
      nonce: info?.nonce ? info.nonce.toBigInt() : null,
    },
    { imprint: new Uint8Array(imprint), nonce },
  );
  if (problem || !token) throw new TimestampUnavailableError(`timestamp refused: ${problem ?? "no token"}`);
  return token;
}
