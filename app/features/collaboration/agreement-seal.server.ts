// The agreement's PDFs once stored: the sealed copy (original pages, certificate page, seal) and
// the download of a version, checked against its SHA-256 as it streams.
import { sql } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import { db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { isUuid } from "~/lib/uuid";
import { logger } from "~/lib/logger.server";
import { getStorage, type ObjectStream } from "~/lib/storage/storage.server";
import { AGREEMENT_MESSAGES, agreementFileName, certificateBlocks } from "./agreement-rules";
import { contentDisposition } from "./documents-rules";
import { fileConflict, requireFileAccess, type FileAccess, type FileActor } from "./file-access.server";
import { appendTextPages } from "~/lib/pdf/text-pdf.server";
import { sealOrRefuse } from "./seal-or-refuse.server";
import { visibleNetworkEvidence } from "./signer-network";
import { agreementKey, type AgreementRow, sha256, type SignatureRow } from "./agreement-records.server";

/** The signed copy: the original pages, unchanged, then the certificate page; stored under a new key. */
export async function sealAgreement(file: Pick<FileAccess, "id" | "reference">, agreement: AgreementRow, signatures: SignatureRow[], completedAt: Date): Promise<{ key: string; sha256: string }> {
  const storage = getStorage();
  const original = await storage.getObject(agreement.document_key);
  if (!original || sha256(original.bytes) !== agreement.document_sha256) {
    logger.error({ agreementId: agreement.id }, "agreement document missing or altered");
    fileConflict(AGREEMENT_MESSAGES.storeFailed, "failed");
  }
  const doc = await PDFDocument.load(original.bytes, { updateMetadata: false });
  await appendTextPages(
    doc,
    certificateBlocks({
      agreementId: agreement.id,
      version: agreement.version,
      fileReference: file.reference,
      documentSha256: agreement.document_sha256,
      signatures: signatures.map((s) => ({
        signerName: s.signer_name,
        signedAt: new Date(s.signed_at),
        // The certificate is made for both parties: both signers' network evidence.
        ...visibleNetworkEvidence("signature", "party", { ipAddress: s.ip_address, userAgent: s.user_agent }),
        method: s.method,
        documentSha256: s.document_sha256,
      })),
      completedAt,
    }),
    { title: "Certificat de signature électronique" },
  );
  const bytes = await sealOrRefuse(doc, { reason: `Convention de partage d’honoraires ${file.reference}, version ${agreement.version}, signée par les deux membres`, signingTime: completedAt });
  const key = agreementKey(file.id, "signed");
  try {
    await storage.putObject(key, bytes, "application/pdf");
  } catch (error) {
    logger.error({ err: error, key }, "signed agreement could not be stored");
    fileConflict(AGREEMENT_MESSAGES.storeFailed, "failed");
  }
  return { key, sha256: sha256(bytes) };
}

// ---------------------------------------------------------------------------------------------
// Downloading

export type AgreementPdf = { object: ObjectStream; sha256: string; disposition: string };

/**
 * The PDF of a version, for one of the file's members, byte for byte as stored (its SHA-256 is
 * the one shown): the document to sign, or the signed copy once both signed.
 */
export async function openAgreementPdf(actor: Pick<FileActor, "profileId">, fileId: string, agreementId: string, copy: "original" | "signed"): Promise<AgreementPdf> {
  const access = await requireFileAccess(db, actor, fileId);
  if (!isUuid(agreementId)) fileConflict(AGREEMENT_MESSAGES.notFound, "not-found");
  const [row] = await queryRows<AgreementRow>(
    sql`select id, version, status::text as status, terms, created_by, document_key, document_sha256, signed_key, signed_sha256,
      signed_at, cancelled_at, created_at from fee_agreements where id = ${agreementId}::uuid and file_id = ${access.id}::uuid`,
  );
  if (!row) fileConflict(AGREEMENT_MESSAGES.notFound, "not-found");
  const signed = copy === "signed";
  const key = signed ? row.signed_key : row.document_key;
  const expected = signed ? row.signed_sha256 : row.document_sha256;
  if (!key || !expected) fileConflict(AGREEMENT_MESSAGES.notFound, "not-found");
  // Streamed, and checked against the SHA-256 shown to the members as it goes.
  const object = await getStorage().openObject(key, { sha256: expected });
  if (!object) {
    logger.error({ agreementId: row.id, key }, "stored agreement missing");
    fileConflict(AGREEMENT_MESSAGES.notFound, "not-found");
  }
  return { object, sha256: expected, disposition: contentDisposition("attachment", agreementFileName(row.version, signed)) };
}
