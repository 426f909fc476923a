// The read state of a file's documents, as message_reads is for messages: a row of
// `document_reads` per document (per version) a person has opened. A document with no row for its
// reader, shared by someone else, is « Nouveau » on their lists until they open it. Keyed by the
// user, since a guest participant has no profile.
import { sql, type SQL } from "drizzle-orm";

/**
 * SQL (a CTE's body): records that `userId` opened the document, once; written in the opening's
 * own statement, beside its access log row.
 */
export function documentReadInsert(userId: SQL, documentId: string): SQL {
  return sql`insert into document_reads (user_id, document_id) select ${userId}, ${documentId}::uuid where ${userId} is not null
    on conflict do nothing returning 1`;
}

/** SQL: the document `d` (a row of collaboration_documents) is new to `userId`: shared by someone else, never opened by them. */
export function documentUnreadSql(userId: SQL, sharedByThem: SQL): SQL<boolean> {
  return sql<boolean>`(not (${sharedByThem}) and not exists (select 1 from document_reads dr where dr.document_id = d.id and dr.user_id = ${userId}))`;
}
