// The seal variables a public (https) deployment requires (decision 050): a generated PKCS#12 in
// base64 and a timestamp authority that tests which seal nothing never reach.
import { makeTestP12 } from "~/lib/pdf/seal-identity.server";

export function sealEnv(tsaUrl = "http://127.0.0.1:9/tsa"): { SIGNING_P12: string; SIGNING_P12_PASSWORD: string; TSA_URL: string } {
  const password = "test-seal";
  return { SIGNING_P12: Buffer.from(makeTestP12("Réseau Transmission", password)).toString("base64"), SIGNING_P12_PASSWORD: password, TSA_URL: tsaUrl };
}
