// The certificate the platform seals its PDFs with: the operator's PKCS#12
// (SIGNING_P12, SIGNING_P12_PASSWORD), or, outside a public deployment, a self-signed test
// certificate generated once and kept in DATA_DIR/signing.
import { createPrivateKey, generateKeyPairSync, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import forge from "node-forge";
import * as pkijs from "pkijs";
import { EnvError, getEnv, type Env } from "~/lib/env.server";
import { signingP12Source, testCertificateSubject } from "./seal-rules";

export type SealIdentity = {
  /** The signing certificate first, then the chain the PKCS#12 carries. */
  certificates: pkijs.Certificate[];
  privateKey: CryptoKey;
  /** The certificate's common name (or organisation), for the visible mention. */
  holder: string;
  test: boolean;
};

const TEST_P12 = "test-seal.p12";
const TEST_P12_PASSWORD = "certificat-de-test";

function invalid(variable: string, message: string): never {
  throw new EnvError(`Configuration invalide :\n  - ${variable} : ${message}`);
}

/** Decodes a PKCS#12 into forge's key and certificates; throws EnvError naming the variable. */
function readP12(bytes: Uint8Array, password: string): { key: forge.pki.rsa.PrivateKey; certs: forge.pki.Certificate[] } {
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(Buffer.from(bytes).toString("binary"))), password);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/mac|password|decrypt|invalid/i.test(message) && !/too few bytes|asn\.1/i.test(message)) invalid("SIGNING_P12_PASSWORD", "ne déchiffre pas le fichier PKCS#12 de SIGNING_P12");
    invalid("SIGNING_P12", `n’est pas un fichier PKCS#12 lisible (${message})`);
  }
  const keyBags = [
    ...(p12.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag! })[forge.pki.oids.pkcs8ShroudedKeyBag!] ?? []),
    ...(p12.getBags({ bagType: forge.pki.oids.keyBag! })[forge.pki.oids.keyBag!] ?? []),
  ];
  const key = keyBags.find((b) => b.key)?.key as forge.pki.rsa.PrivateKey | undefined;
  if (!key) invalid("SIGNING_P12", "ne contient pas de clé privée RSA (ou SIGNING_P12_PASSWORD ne la déchiffre pas)");
  const certs = (p12.getBags({ bagType: forge.pki.oids.certBag! })[forge.pki.oids.certBag!] ?? []).flatMap((b) => (b.cert ? [b.cert] : []));
  // The signing certificate is the one whose public key matches the private key.
  const modulus = key.n.toString(16);
  const own = certs.findIndex((c) => (c.publicKey as forge.pki.rsa.PublicKey).n?.toString(16) === modulus);
  if (own < 0) invalid("SIGNING_P12", "ne contient pas le certificat de sa clé privée");
  const now = new Date();
  const cert = certs[own]!;
  if (cert.validity.notAfter < now || cert.validity.notBefore > now) {
    invalid("SIGNING_P12", `certificat hors de sa période de validité (${cert.validity.notBefore.toISOString()} – ${cert.validity.notAfter.toISOString()})`);
  }
  return { key, certs: [cert, ...certs.filter((_, i) => i !== own)] };
}

async function toIdentity(key: forge.pki.rsa.PrivateKey, certs: forge.pki.Certificate[], test: boolean): Promise<SealIdentity> {
  const pkcs8 = createPrivateKey(forge.pki.privateKeyToPem(key)).export({ type: "pkcs8", format: "der" });
  const privateKey = await crypto.subtle.importKey("pkcs8", pkcs8, { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, false, ["sign"]);
  const certificates = certs.map((c) => pkijs.Certificate.fromBER(Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(c)).getBytes(), "binary")));
  const subject = certs[0]!.subject;
  const field = (subject.getField("CN") ?? subject.getField("O")) as { value: string; valueTagClass?: number } | null;
  // forge leaves a UTF8String's bytes undecoded.
  const holder = field ? (field.valueTagClass === forge.asn1.Type.UTF8 ? forge.util.decodeUtf8(field.value) : field.value) : "certificat de la plateforme";
  return { certificates, privateKey, holder, test };
}

/** A self-signed RSA certificate whose subject says « certificat de test », as a PKCS#12. */
export function makeTestP12(appName: string, password: string): Uint8Array {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: "pkcs1", format: "pem" }).toString()) as forge.pki.rsa.PrivateKey;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = `01${randomBytes(15).toString("hex")}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 10 * 365 * 86_400_000);
  const { commonName, organization } = testCertificateSubject(appName);
  const attrs = [
    { shortName: "CN", value: commonName, valueTagClass: forge.asn1.Type.UTF8 },
    { shortName: "O", value: organization, valueTagClass: forge.asn1.Type.UTF8 },
    { shortName: "C", value: "FR" },
  ] as forge.pki.CertificateField[];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, nonRepudiation: true },
  ]);
  cert.sign(key, forge.md.sha256.create());
  const asn1 = forge.pkcs12.toPkcs12Asn1(key, [cert], password, { algorithm: "aes256", friendlyName: commonName });
  return Uint8Array.from(Buffer.from(forge.asn1.toDer(asn1).getBytes(), "binary"));
}

/** The PKCS#12 bytes SIGNING_P12 designates; throws EnvError naming the variable. */
function operatorP12(value: string): Uint8Array {
  const source = signingP12Source(value);
  if (source.kind === "invalid") invalid("SIGNING_P12", "doit être le chemin d’un fichier PKCS#12 (commençant par / ou .) ou son contenu en base64");
  if (source.kind === "base64") return source.bytes;
  try {
    return readFileSync(source.path);
  } catch {
    return invalid("SIGNING_P12", `fichier illisible : ${source.path}`);
  }
}

/** Whether this deployment may seal with a generated test certificate (not a public one). */
export function mayUseTestCertificate(env: Pick<Env, "APP_URL">): boolean {
  return !env.APP_URL.startsWith("https://");
}

async function loadIdentity(env: Env): Promise<SealIdentity> {
  if (env.SIGNING_P12) {
    const { key, certs } = readP12(operatorP12(env.SIGNING_P12), env.SIGNING_P12_PASSWORD ?? "");
    return toIdentity(key, certs, false);
  }
  if (!mayUseTestCertificate(env)) invalid("SIGNING_P12", "obligatoire quand APP_URL est en https (certificat de cachet de la plateforme, voir README)");
  const dir = path.resolve(env.DATA_DIR, "signing");
  const file = path.join(dir, TEST_P12);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, makeTestP12(env.APP_NAME, TEST_P12_PASSWORD), { mode: 0o600 });
    // Two instances starting together: the first rename wins, both read the same file.
    if (!existsSync(file)) renameSync(temp, file);
  }
  const { key, certs } = readP12(readFileSync(file), TEST_P12_PASSWORD);
  return toIdentity(key, certs, true);
}

const identities = new Map<string, Promise<SealIdentity>>();

/** The sealing identity for the current environment (loaded once per configuration). */
export function getSealIdentity(env: Env = getEnv()): Promise<SealIdentity> {
  const cacheKey = `${env.SIGNING_P12 ?? ""}\0${env.DATA_DIR}`;
  let identity = identities.get(cacheKey);
  if (!identity) {
    identity = loadIdentity(env);
    identities.set(cacheKey, identity);
    identity.catch(() => identities.delete(cacheKey));
  }
  return identity;
}
