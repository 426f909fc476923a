// The rows of the fee-sharing agreement and the member details its PDFs copy, shared by
// its reading, proposing, signing and sealing modules.
import { createHash, randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { type Db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { PRIVATE_DOCUMENTS_PREFIX } from "~/lib/storage/keys";
import { AGREEMENT_MESSAGES, canCreateAgreement } from "./agreement-rules";
import { type FileAccess } from "./file-access.server";

export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** A fresh private storage key for a version's PDF or the signed copy. */
export function agreementKey(fileId: string, kind: "v" | "signed"): string {
  return `${PRIVATE_DOCUMENTS_PREFIX}${fileId}/agreement-${kind}-${randomBytes(12).toString("hex")}.pdf`;
}

export type MemberRow = {
  id: string;
  first_name: string;
  last_name: string;
  company: string | null;
  full_address: string | null;
  profession: string | null;
  user_id: string;
};

export async function memberOf(handle: Db, profileId: string | null): Promise<MemberRow | null> {
  if (!profileId) return null;
  const [row] = await queryRows<MemberRow>(
    sql`select id, first_name, last_name, company, full_address, profession::text as profession, user_id from profiles where id = ${profileId}::uuid`,
    handle,
  );
  return row ?? null;
}

export const fullName = (m: MemberRow) => `${m.first_name} ${m.last_name}`.trim();

export type AgreementRow = {
  id: string;
  version: number;
  status: "pending" | "signed" | "cancelled";
  terms: unknown;
  created_by: string | null;
  document_key: string;
  document_sha256: string;
  signed_key: string | null;
  signed_sha256: string | null;
  signed_at: Date | string | null;
  cancelled_at: Date | string | null;
  created_at: Date | string;
};

export type SignatureRow = {
  agreement_id: string;
  profile_id: string | null;
  signer_name: string;
  document_sha256: string;
  ip_address: string | null;
  user_agent: string | null;
  method: string;
  signed_at: Date | string;
};

/** Why no new version may be proposed now, or null when one may. */
export function createBlocker(access: FileAccess, currentStatus: AgreementRow["status"] | null): string | null {
  if (currentStatus === "signed") return AGREEMENT_MESSAGES.signedFinal;
  if (!canCreateAgreement(access.stage)) return AGREEMENT_MESSAGES.closedCreate;
  if (!access.counterpartId) return AGREEMENT_MESSAGES.counterpartGone;
  return null;
}
