// Who sees a member's network evidence — the IP address and browser (user agent) recorded with an
// act — other than the member. Pure; one rule for the signature certificate, the
// file's evidence export and the data export.
//
// A signature's IP address and browser are part of the proof that each party agreed: both
// parties of the agreement see both signers' (the certificate is made for both of them, and each
// may have to produce it). Nothing else of another member's network data is ever shown to a
// member: not their sessions, sign-ins, document openings or any other act.

/** The kinds of records that carry an IP address and a browser. */
export type NetworkRecord = "signature" | "session" | "sign-in" | "document-opening";

/**
 * Who is looking: the member the record is about, a party to the same agreement (the other
 * member of the collaboration file), or any other member.
 */
export type NetworkViewer = "self" | "party" | "other";

export type NetworkEvidence = { ipAddress: string | null; userAgent: string | null };

export function showsNetworkEvidence(record: NetworkRecord, viewer: NetworkViewer): boolean {
  if (viewer === "self") return true;
  return record === "signature" && viewer === "party";
}

/** The evidence as this viewer may see it: as recorded, or blanked. */
export function visibleNetworkEvidence(record: NetworkRecord, viewer: NetworkViewer, evidence: NetworkEvidence): NetworkEvidence {
  return showsNetworkEvidence(record, viewer) ? evidence : { ipAddress: null, userAgent: null };
}
