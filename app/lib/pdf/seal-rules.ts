// Pure rules of the platform's PDF seal: how SIGNING_P12 is read, the visible
// mention drawn on a sealed PDF, and the check of a timestamp authority's answer.

/** SIGNING_P12 is a path when it starts with « / » or « . », else the PKCS#12 itself in base64. */
export function signingP12Source(value: string): { kind: "path"; path: string } | { kind: "base64"; bytes: Uint8Array } | { kind: "invalid" } {
  const v = value.trim();
  if (v.startsWith("/") || v.startsWith(".")) return { kind: "path", path: v };
  const compact = v.replace(/\s+/g, "");
  if (compact.length < 64 || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.length % 4 !== 0) return { kind: "invalid" };
  const bytes = Uint8Array.from(Buffer.from(compact, "base64"));
  // A PKCS#12 is a DER SEQUENCE.
  return bytes[0] === 0x30 ? { kind: "base64", bytes } : { kind: "invalid" };
}

/** The subject of the certificate generated when the operator configured none. */
export function testCertificateSubject(appName: string): { commonName: string; organization: string } {
  return { commonName: `${appName} — certificat de test`, organization: `${appName} (certificat de test, sans valeur probante)` };
}

/** The line drawn at the foot of a sealed PDF's last page. */
export function sealMention(input: { appName: string; holder: string; test: boolean }): string {
  const base = `Document scellé électroniquement par ${input.appName} (cachet\u00a0: ${input.holder}), horodaté, vérifiable dans un lecteur PDF.`;
  return input.test ? `${base} CERTIFICAT DE TEST\u00a0: ce cachet ne prouve rien hors d’un environnement de test.` : base;
}

/**
 * Whether a timestamp authority's answer can be used (RFC 3161 §2.4.2): granted (0) or granted
 * with modifications (1), for the imprint and nonce that were sent.
 */
export function timestampAnswerProblem(answer: { status: number; imprint: Uint8Array | null; nonce: bigint | null }, sent: { imprint: Uint8Array; nonce: bigint }): string | null {
  if (answer.status !== 0 && answer.status !== 1) return `status ${answer.status}`;
  if (!answer.imprint || Buffer.compare(Buffer.from(answer.imprint), Buffer.from(sent.imprint)) !== 0) return "message imprint differs";
  if (answer.nonce !== sent.nonce) return "nonce differs";
  return null;
}
