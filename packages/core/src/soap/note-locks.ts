import { systemError } from "../kernel/system-errors.js";
import { soapError } from "./soap-errors.js";
import { clinicAccess } from "../auth/clinic-access.js";
import type { Principal } from "../auth/principal.js";
import type { DomainError } from "../kernel/domain-error.js";
import type { SoapNoteRepository } from "./soap-note-repository.js";
import type { SoapNote } from "./soap-note.js";
import { allowedNoteActions, isNoteEditable } from "./soap-note-transitions.js";

export const soapNoteNotFound = (contextId: unknown) =>
  soapError("SOAP_NOTE_NOT_FOUND", "SOAP note not found", { context_id: contextId });

type Missing = () => DomainError;

/** A note belongs to the clinic it was written at: outside the principal's clinic restriction, it is not there. */
function reached(note: SoapNote | undefined, principal: Principal, missing: Missing): SoapNote {
  if (!note || !clinicAccess(principal).canSee(note.clinicId)) throw missing();
  return note;
}

/**
 * The note of the principal's organisation, read without a lock; SOAP_NOTE_NOT_FOUND (or the error `missing` makes,
 * for what hangs off the note) when it has none, or the note is at a clinic the principal's restriction does not
 * reach.
 */
export async function existingNote(
  r: { soapNotes: SoapNoteRepository },
  principal: Principal,
  contextId: string,
  missing: Missing = () => soapNoteNotFound(contextId),
): Promise<SoapNote> {
  return reached(await r.soapNotes.findByContextId(principal.organisationId, contextId), principal, missing);
}

/** The note, locked for the rest of the transaction; not found as for existingNote. */
export async function lockedNote(
  tx: { soapNotes: SoapNoteRepository },
  principal: Principal,
  contextId: string,
  missing: Missing = () => soapNoteNotFound(contextId),
): Promise<SoapNote> {
  return reached(await tx.soapNotes.lockNote(principal.organisationId, contextId), principal, missing);
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
  throw systemError("INVALID_TRANSITION", why, {
    context_id: note.contextId,
    current_status: note.status,
    action,
    allowed_actions: allowedNoteActions(note.status),
  });
}
