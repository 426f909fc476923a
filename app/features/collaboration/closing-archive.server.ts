// The closing archive of a concluded collaboration file: a ZIP of
// its documents (every version still shared), its agreements (originals and signed copies), its
// undertakings as a sealed PDF and its timeline, with a manifest of SHA-256 hashes (JSON) and the
// same manifest as a PDF sealed by the platform. Streamed with yazl: stored files flow from the
// storage into the ZIP, never held whole in memory. The file's two members only.
import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import { sql, type SQL } from "drizzle-orm";
import { ZipFile } from "yazl";
import { db } from "~/db/client.server";
import { queryRows } from "~/db/query.server";
import { formatDatePattern } from "~/lib/format";
import { logger } from "~/lib/logger.server";
import type { PdfBlock } from "~/lib/pdf/blocks";
import { textPdfDocument } from "~/lib/pdf/text-pdf.server";
import { consumeRateLimit, type RateLimitRule } from "~/lib/rate-limit.server";
import { getStorage } from "~/lib/storage/storage.server";
import { AGREEMENT_MESSAGES } from "./agreement-rules";
import { documentFolderName, manifestJson, uniquePath, type ArchiveEntryMeta } from "./closing-archive-rules";
import { getFileView } from "./file-view.server";
import { lineageOf, versionEntryName } from "./document-versions-rules";
import { contentDisposition } from "./documents-rules";
import { folderSeenByFounder } from "./document-list.server";
import { fileConflict, requireFileAccess, type FileAccess, type FileActor } from "./file-access.server";
import { sealOrRefuse } from "./seal-or-refuse.server";
import { undertakingsPdf } from "./undertakings-pdf.server";

// A whole file's archive costs I/O: a few per hour per member.
const ARCHIVE_RATE: RateLimitRule = { limit: 10, windowSeconds: 60 * 60 };

/** An entry: bytes made now, or a stored object streamed (checked against its recorded SHA-256). */
export type ArchiveEntry = ArchiveEntryMeta & ({ bytes: Uint8Array } | { storageKey: string });

/** A part of the archive: its entries, their paths taken from `taken` through uniquePath. */
export type ArchiveSection = (ctx: { access: FileAccess; actor: FileActor; taken: Set<string> }) => Promise<ArchiveEntry[]>;

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
/** An entry of bytes made now, with its hash for the manifest. */
export const made = (path: string, bytes: Uint8Array, description: string): ArchiveEntry => ({ path, bytes, sha256: sha256(bytes), size: bytes.byteLength, description });

type ArchivedDocumentRow = {
  id: string;
  lineage_id: string | null;
  version: number;
  name: string;
  storage_key: string;
  sha256: string;
  size_bytes: number | string;
  created_at: Date | string;
};

/**
 * Every version still shared (a withdrawn one's bytes are deleted) of the file's documents that `seen` keeps (a condition on `d` and its folder `fo`):
 * one folder per logical document, named after its first version, holding `v1-…`, `v2-…`.
 */
export async function documentEntries(fileId: string, seen: SQL, taken: Set<string>): Promise<ArchiveEntry[]> {
  const rows = await queryRows<ArchivedDocumentRow>(sql`
    select d.id, d.lineage_id, d.version, d.name, d.storage_key, d.sha256, d.size_bytes, d.created_at
    from collaboration_documents d left join collaboration_folders fo on fo.id = d.folder_id
    where d.file_id = ${fileId}::uuid and d.withdrawn_at is null and ${seen} order by d.created_at, d.id`);
  const folders = new Map<string, string>();
  for (const d of [...rows].sort((x, y) => x.version - y.version)) {
    const lineage = lineageOf({ id: d.id, lineageId: d.lineage_id });
    if (!folders.has(lineage)) folders.set(lineage, uniquePath("documents", documentFolderName(d.name), taken));
  }
  return rows.map((d) => {
    const folder = folders.get(lineageOf({ id: d.id, lineageId: d.lineage_id }))!;
    return {
      path: uniquePath(folder, versionEntryName(d.version, d.name), taken),
      storageKey: d.storage_key,
      sha256: d.sha256,
      size: Number(d.size_bytes),
      description: `Version ${d.version}, partagée le ${formatDatePattern(d.created_at, "dd/MM/yyyy")}`,
    };
  });
}

// A founder's archive holds what their document room shows them: the general folder, shared folders and their side's.
const documentsSection: ArchiveSection = ({ access, actor, taken }) => documentEntries(access.id, folderSeenByFounder(actor.profileId), taken);

const agreementsSection: ArchiveSection = async ({ access, taken }) => {
  const rows = await queryRows<{ version: number; status: string; document_key: string; document_sha256: string; signed_key: string | null; signed_sha256: string | null }>(sql`
    select version, status::text as status, document_key, document_sha256, signed_key, signed_sha256 from fee_agreements
    where file_id = ${access.id}::uuid order by version`);
  const storage = getStorage();
  const entries: ArchiveEntry[] = [];
  for (const a of rows) {
    for (const [key, hash, name, description] of [
      [a.document_key, a.document_sha256, `convention-v${a.version}.pdf`, `Convention d’honoraires, version ${a.version} (${a.status}), document soumis à signature`],
      [a.signed_key, a.signed_sha256, `convention-v${a.version}-signee.pdf`, `Convention d’honoraires, version ${a.version}, exemplaire signé et scellé`],
    ] as const) {
      if (!key || !hash) continue;
      // The size is the store's; the object itself is streamed later.
      const object = await storage.openObject(key, { sha256: hash });
      if (!object) continue;
      object.body.destroy();
      entries.push({ path: uniquePath("conventions", name, taken), storageKey: key, sha256: hash, size: object.contentLength, description });
    }
  }
  return entries;
};

const recordSection: ArchiveSection = async ({ access, actor, taken }) => {
  const view = await getFileView(actor, access.id);
  const timeline = Buffer.from(`${JSON.stringify({ file: access.reference, stage: view.stage, timeline: view.timeline }, null, 2)}\n`);
  const undertakings = await undertakingsPdf(actor, access.id);
  return [
    made(uniquePath("historique", "historique.json", taken), timeline, "Historique du dossier (étapes, signatures, documents, exports)"),
    made(uniquePath("engagements", "engagements-confidentialite.pdf", taken), undertakings.bytes, "Engagements de confidentialité, PDF scellé"),
  ];
};

/** This area's sections, in archive order; the route adds those of the areas above this one. */
const CLOSING_ARCHIVE_SECTIONS: ArchiveSection[] = [documentsSection, agreementsSection, recordSection];

export type ClosingArchive = { stream: Readable; fileName: string; disposition: string; manifestSha256: string };

/** The archive of a concluded file for one of its members (404 for anyone else, 409 before the end). */
export async function openClosingArchive(
  actor: FileActor,
  fileId: string,
  moreSections: readonly ArchiveSection[] = [],
  now: Date = new Date(),
): Promise<ClosingArchive> {
  const access = await requireFileAccess(db, actor, fileId);
  if (access.stage !== "concluded") fileConflict(AGREEMENT_MESSAGES.archiveNotConcluded, "conflict");
  const rate = await consumeRateLimit(`closing-archive:${actor.profileId}`, ARCHIVE_RATE);
  if (!rate.allowed) fileConflict(AGREEMENT_MESSAGES.tooManyExports, "rate-limited");
  const taken = archivePathsTaken();
  const entries: ArchiveEntry[] = [];
  for (const section of [...CLOSING_ARCHIVE_SECTIONS, ...moreSections]) entries.push(...(await section({ access, actor, taken })));
  return streamArchive({ fileId: access.id, reference: access.reference, entries, now });
}

/** The paths the manifest and its sealed copy hold, before any entry takes one. */
export function archivePathsTaken(): Set<string> {
  return new Set<string>(["manifeste.json", "manifeste-scelle.pdf"]);
}

/** Seals the manifest of these entries and streams the ZIP (a participant's archive uses it too). */
export async function streamArchive(input: { fileId: string; reference: string; entries: ArchiveEntry[]; now: Date }): Promise<ClosingArchive> {
  const { entries, now } = input;
  const access = { id: input.fileId, reference: input.reference };
  const manifest = Buffer.from(manifestJson({ reference: access.reference, builtAt: now, entries: entries.map(({ path, sha256, size, description }) => ({ path, sha256, size, description })) }));
  const manifestSha256 = sha256(manifest);
  const blocks: PdfBlock[] = [
    { kind: "title", text: "Archive de clôture — manifeste" },
    { kind: "subtitle", text: `Dossier de rapprochement ${access.reference} — archive constituée le ${formatDatePattern(now, "dd/MM/yyyy 'à' HH:mm")}` },
    { kind: "text", text: `Empreinte SHA-256 de manifeste.json\u00a0: ${manifestSha256}` },
    { kind: "heading", text: "Fichiers de l’archive et leurs empreintes SHA-256" },
    ...[...entries].sort((x, y) => (x.path < y.path ? -1 : 1)).flatMap((e): PdfBlock[] => [
      { kind: "text", text: `${e.path} — ${e.description}` },
      { kind: "mono", text: `${e.sha256} (${e.size} octets)` },
    ]),
  ];
  const sealed = await sealOrRefuse(await textPdfDocument(blocks, { title: "Archive de clôture — manifeste", createdAt: now }), {
    reason: `Manifeste de l’archive de clôture du dossier ${access.reference}`,
    signingTime: now,
  });

  const zip = new ZipFile();
  const storage = getStorage();
  zip.addBuffer(manifest, "manifeste.json", { mtime: now });
  zip.addBuffer(Buffer.from(sealed), "manifeste-scelle.pdf", { mtime: now, compress: false });
  // Stored objects are opened one after another as yazl reaches them, so one stream is open at a time.
  const queue = [...entries];
  const next = async (): Promise<void> => {
    const entry = queue.shift();
    if (!entry) {
      zip.end();
      return;
    }
    if ("bytes" in entry) {
      zip.addBuffer(Buffer.from(entry.bytes), entry.path, { mtime: now });
      return next();
    }
    const object = await storage.openObject(entry.storageKey, { sha256: entry.sha256 });
    if (!object) throw new Error(`stored object missing: ${entry.storageKey}`);
    object.body.once("end", () => void next().catch(fail));
    // A store failure or a SHA-256 that differs from the recorded one ends the download broken.
    object.body.once("error", fail);
    zip.addReadStream(object.body, entry.path, { mtime: now, size: entry.size });
  };
  const fail = (error: unknown) => {
    logger.error({ err: error, fileId: access.id }, "closing archive aborted");
    zip.outputStream.destroy(error instanceof Error ? error : new Error(String(error)));
  };
  void next().catch(fail);
  const fileName = `archive-cloture-${access.reference}.zip`;
  return { stream: zip.outputStream, fileName, disposition: contentDisposition("attachment", fileName), manifestSha256 };
}
