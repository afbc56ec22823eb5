/** AUTHOR: the rendering physician's signature; COSIGNER: the supervising physician's co-signature. */
export type SignatureRole = "AUTHOR" | "COSIGNER";

/**
 * A signature on a note: who signed, when, and the hash of the content they
 * signed. Signatures are never deleted; sending a note back revokes them.
 */
export interface SoapSignature {
  id: number;
  organisationId: number;
  contextId: string;
  role: SignatureRole;
  userId: number;
  /** "sha256:<hex>" of the note's canonical content at signing (soapContentHash). */
  contentHash: string;
  signedAt: Date;
  revokedAt: Date | null;
  revokedReason: string | null;
}

/** One step of a note's audit trail: creation, every status action, sheet and form writes are not listed here (they carry their own versions). */
export interface SoapNoteHistoryEntry {
  organisationId: number;
  contextId: string;
  action: string;
  fromStatus: string | null;
  toStatus: string;
  actorUserId: number | null;
  at: Date;
  details: Record<string, unknown>;
}
