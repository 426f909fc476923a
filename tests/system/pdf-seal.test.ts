// The platform's seal on the production server (issue 32 §4, decision 050): the evidence export of
// a collaboration file comes sealed (PAdES, ETSI.CAdES.detached) with an RFC 3161 timestamp asked
// of TSA_URL — here OpenSSL acting as the authority behind a small HTTP server. poppler's pdfsig
// reports the signature valid over the whole document, and a copy with one byte changed invalid;
// the timestamp token, taken out of the CMS, passes `openssl ts -verify` against the test TSA's
// certificate over the signature value, and fails over anything else.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, readdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import os from "node:os";
import path from "node:path";
import * as pkijs from "pkijs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { signInCookie } from "../../scripts/bench/member";
import { demoLoginEmail } from "../../scripts/seed-lib";
import { opensslAuthority, testAuthorityFiles } from "~/lib/pdf/timestamp.server";
import { sqlRows } from "./support/client";
import { createSystemDatabase, runScript, type SystemDatabase } from "./support/database";
import { startServer, type RunningServer } from "./support/server";

const SEED = 32;
const TIMESTAMP_TOKEN_OID = "1.2.840.113549.1.9.16.2.14";

let database: SystemDatabase;
let server: RunningServer;
let tsa: Server;
let tsaDir: string;
let work: string;
let tsaRequests = 0;
let pdf: Buffer;

function pdfsig(file: string): string {
  const run = spawnSync("pdfsig", [file], { encoding: "utf8" });
  return `${run.stdout}${run.stderr}`;
}

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), "rt-seal-"));
  // OpenSSL as the timestamp authority, its certificate (timeStamping usage) in a directory of its own.
  tsaDir = mkdtempSync(path.join(os.tmpdir(), "rt-tsa-"));
  const authority = opensslAuthority(tsaDir, "Système");
  tsa = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      tsaRequests++;
      authority(new Uint8Array(Buffer.concat(chunks))).then(
        (answer) => res.writeHead(200, { "content-type": "application/timestamp-reply" }).end(Buffer.from(answer)),
        () => res.writeHead(500).end(),
      );
    });
  });
  await new Promise<void>((resolve) => tsa.listen(0, "127.0.0.1", resolve));
  const address = tsa.address();
  const tsaUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/tsa`;

  database = await createSystemDatabase();
  runScript(database, ["scripts/seed.ts", "--members", "12", "--seed", String(SEED)]);
  const email = demoLoginEmail("premium", SEED);
  const [file] = await sqlRows<{ id: string }>(
    database,
    `select f.id from collaboration_files f join profiles p on p.id in (f.member_a_id, f.member_b_id) join "user" u on u.id = p.user_id
      where u.email = '${email}' and f.member_a_id is not null and f.member_b_id is not null order by f.id limit 1`,
  );
  expect(file, "the seed gives the premium persona a collaboration file").toBeDefined();
  server = await startServer({ ...database.env, TSA_URL: tsaUrl }, { capture: true });
  const cookie = await signInCookie(server.baseUrl, email);
  const response = await fetch(`${server.baseUrl}/dashboard/dossiers/${file!.id}/historique`, { headers: { cookie } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/pdf");
  pdf = Buffer.from(await response.arrayBuffer());
  expect(response.headers.get("x-content-sha256")).toMatch(/^[0-9a-f]{64}$/);
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
  await new Promise((resolve) => tsa?.close(resolve));
  for (const dir of [work, tsaDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

it("pdfsig: the platform's signature is valid and covers the whole document, by the test certificate", () => {
  const file = path.join(work, "historique.pdf");
  writeFileSync(file, pdf);
  const report = pdfsig(file);
  expect(report).toContain("Signature Type: ETSI.CAdES.detached");
  expect(report).toContain("Signature Validation: Signature is Valid.");
  expect(report).toContain("Total document signed");
  // The generated certificate says what it is; so does the page.
  expect(report).toMatch(/Signer Certificate Common Name: .*certificat de test/);
  const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
  expect(text).toContain("CERTIFICAT DE TEST");
  expect(tsaRequests).toBeGreaterThanOrEqual(1);
});

it("pdfsig: a copy with one byte changed inside the signed range is reported invalid", () => {
  // The signature dictionary's /Reason, a literal string inside the second signed range.
  const at = pdf.indexOf("/Reason (Historique du dossier ") + "/Reason (".length;
  expect(at).toBeGreaterThan(100);
  const altered = Buffer.from(pdf);
  altered[at] = "h".charCodeAt(0);
  const file = path.join(work, "modifie.pdf");
  writeFileSync(file, altered);
  const report = pdfsig(file);
  expect(report).not.toContain("Signature is Valid.");
  expect(report).toMatch(/Signature Validation: (Digest Mismatch|Signature is Invalid)/);
});

it("openssl ts -verify: the timestamp token is the test TSA's, over the signature value", () => {
  const file = path.join(work, "dump.pdf");
  writeFileSync(file, pdf);
  execFileSync("pdfsig", ["-dump", file], { cwd: work });
  const dumped = readdirSync(work).find((name) => name.startsWith("dump.pdf.sig"));
  expect(dumped).toBeDefined();
  const cms = pkijs.ContentInfo.fromBER(readFileSync(path.join(work, dumped!)));
  const signerInfo = new pkijs.SignedData({ schema: cms.content }).signerInfos[0]!;
  const attribute = signerInfo.unsignedAttrs?.attributes.find((a) => a.type === TIMESTAMP_TOKEN_OID);
  expect(attribute, "the SignerInfo carries a signature timestamp token").toBeDefined();
  writeFileSync(path.join(work, "token.der"), Buffer.from(attribute!.values[0]!.toBER()));
  writeFileSync(path.join(work, "signature.bin"), Buffer.from(signerInfo.signature.valueBlock.valueHexView));
  writeFileSync(path.join(work, "other.bin"), Buffer.from("not the signature"));
  const { cert } = testAuthorityFiles(tsaDir);
  const verify = (data: string) =>
    spawnSync("openssl", ["ts", "-verify", "-in", "token.der", "-token_in", "-data", data, "-CAfile", cert], { cwd: work, encoding: "utf8" });
  const good = verify("signature.bin");
  expect(`${good.stdout}${good.stderr}`).toContain("Verification: OK");
  expect(good.status).toBe(0);
  const bad = verify("other.bin");
  expect(bad.status).not.toBe(0);
  expect(`${bad.stdout}${bad.stderr}`).not.toContain("Verification: OK");
});
