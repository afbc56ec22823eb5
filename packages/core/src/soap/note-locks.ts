import { DomainError } from "../errors/domain-error.js";
import type { Repositories } from "../ports/storage.js";
import type { SoapNote } from "./soap-note.js";
import { allowedNoteActions, isNoteEditable } from "./soap-note-transitions.js";

export const soapNoteNotFound = (contextId: unknown) =>
  new DomainError("SOAP_NOTE_NOT_FOUND", "SOAP note not found", { context_id: contextId });

/** The note of the organisation, read without a lock; SOAP_NOTE_NOT_FOUND when it has none. */
export async function existingNote(r: Repositories, organisationId: number, contextId: string): Promise<SoapNote> {
  const note = await r.soapNotes.findByContextId(organisationId, contextId);
  if (!note) throw soapNoteNotFound(contextId);
  return note;
}

/** The note, locked for the rest of the transaction; SOAP_NOTE_NOT_FOUND when the organisation has none. */
export async function lockedNote(tx: Repositories, organisationId: number, contextId: string): Promise<SoapNote> {
  const note = await tx.soapNotes.lockNote(organisationId, contextId);
  if (!note) throw soapNoteNotFound(contextId);
  return note;
}

/**
 * Refuses a content write (a form, the treatment sheet) unless the note is
 * INCOMPLETED or REVISION: a note awaiting co-signature is frozen for review,
 * a COMPLETED one for good (changes go through an ADDENDUM).
 */
export function assertNoteEditable(note: SoapNote, action: string): void {
  if (isNoteEditable(note.status)) return;
  const why =
    note.status === "COMPLETED"
      ? "A COMPLETED note is locked; write an ADDENDUM instead"
      : "A note awaiting co-signature cannot change; the supervising physician co-signs it or returns it for revision";
  throw new DomainError("INVALID_TRANSITION", why, {
    context_id: note.contextId,
    current_status: note.status,
    action,
    allowed_actions: allowedNoteActions(note.status),
  });
}
