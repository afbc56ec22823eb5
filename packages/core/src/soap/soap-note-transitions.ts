import type { SoapNoteStatus } from "./soap-note.js";

/** What a caller can do to an existing note's status (each has a v1 endpoint). */
export const SOAP_NOTE_ACTIONS = ["SIGN", "COSIGN", "RETURN_FOR_REVISION", "COMPLETE"] as const;
export type SoapNoteAction = (typeof SOAP_NOTE_ACTIONS)[number];

/**
 * Conditions besides the current status; the service checks them (they need
 * the caller, the organisation's settings and the note's content):
 * - `author`: the caller is the note's rendering physician;
 * - `supervisor`: the caller is the note's supervising physician;
 * - `ready`: every required section (requiredSections: the spec's three, the Plan when the organisation requires it) is filled and no treatment line bills more units than the rule supports;
 * - `cosign_required` / `cosign_not_required`: the organisation requires co-signature and the note has a supervising physician (or not);
 * - `author_signed`: the rendering physician's signature is in place and the content hash still matches;
 * - `signed`: the author's signature and, where required, the co-signature are in place and the content hash still matches;
 * - `medicare_modifiers`: for a visit billed to Medicare Part B, every billed line carries GP, GO or GN;
 * - `progress_report`: a daily note (FOLLOWUP_SOAP) of a case's visit billed to Medicare Part B is not the 10th
 *   treatment day since the last evaluation or progress report (then it must be a PROGRESS_REPORT); signed, co-sign
 *   pending and completed notes of the case all count, and it is checked at signing and again at completion.
 */
export type SoapNoteGuard =
  | "author"
  | "supervisor"
  | "ready"
  | "cosign_required"
  | "cosign_not_required"
  | "author_signed"
  | "signed"
  | "medicare_modifiers"
  | "progress_report";

/** What a transition does besides changing the status. */
export type SoapNoteEffect =
  | "store_signature"
  | "store_cosignature"
  | "revoke_signatures"
  | "set_completed"
  | "queue_summary_pdf"
  | "submit_for_billing"
  | "update_plan_of_care"
  | "emit_soap_note_completed"
  /** A visit billed to Medicare Part B: the therapy thresholds' warnings (KX, review, medical necessity) on the answer and in the history. */
  | "warn_medicare_thresholds"
  /** A visit billed to Medicare Part B: its lines counted towards the year's thresholds; the review event when it crosses $3,000. */
  | "record_therapy_charges";

export interface SoapNoteTransition {
  from: SoapNoteStatus;
  action: SoapNoteAction;
  guards: readonly SoapNoteGuard[];
  to: SoapNoteStatus;
  effects: readonly SoapNoteEffect[];
}

/**
 * The SOAP note status machine, one row per allowed transition; anything not
 * listed is refused with INVALID_TRANSITION naming the status and the allowed
 * actions. Creation (no state → INCOMPLETED) is the service's create().
 * Forms and the treatment sheet can be written in INCOMPLETED and REVISION only
 * (EDITABLE_STATUSES): a note awaiting co-signature is frozen for review, a
 * COMPLETED one for good (changes go through an ADDENDUM).
 */
export const SOAP_NOTE_TRANSITIONS: readonly SoapNoteTransition[] = Object.freeze([
  {
    from: "INCOMPLETED",
    action: "SIGN",
    guards: ["author", "ready", "progress_report", "cosign_not_required"],
    to: "INCOMPLETED",
    effects: ["store_signature", "warn_medicare_thresholds"],
  },
  {
    from: "INCOMPLETED",
    action: "SIGN",
    guards: ["author", "ready", "progress_report", "cosign_required"],
    to: "COSIGN",
    effects: ["store_signature", "warn_medicare_thresholds"],
  },
  {
    from: "REVISION",
    action: "SIGN",
    guards: ["author", "ready", "progress_report", "cosign_required"],
    to: "COSIGN",
    effects: ["store_signature", "warn_medicare_thresholds"],
  },
  // The organisation may have stopped requiring co-signature while the note was sent back.
  {
    from: "REVISION",
    action: "SIGN",
    guards: ["author", "ready", "progress_report", "cosign_not_required"],
    to: "INCOMPLETED",
    effects: ["store_signature", "warn_medicare_thresholds"],
  },
  {
    from: "COSIGN",
    action: "COSIGN",
    guards: ["supervisor", "author_signed"],
    to: "INCOMPLETED",
    effects: ["store_cosignature"],
  },
  {
    from: "COSIGN",
    action: "RETURN_FOR_REVISION",
    guards: ["supervisor"],
    to: "REVISION",
    effects: ["revoke_signatures"],
  },
  {
    from: "INCOMPLETED",
    action: "COMPLETE",
    guards: ["ready", "signed", "medicare_modifiers", "progress_report"],
    to: "COMPLETED",
    effects: [
      "set_completed",
      "queue_summary_pdf",
      "submit_for_billing",
      "update_plan_of_care",
      "record_therapy_charges",
      "emit_soap_note_completed",
    ],
  },
] as const satisfies readonly SoapNoteTransition[]);

/** Statuses in which forms, the treatment sheet and signatures may change. */
export const EDITABLE_STATUSES: readonly SoapNoteStatus[] = Object.freeze(["INCOMPLETED", "REVISION"]);

export const isNoteEditable = (status: SoapNoteStatus) => EDITABLE_STATUSES.includes(status);

/** The rows for `action` from `from` (SIGN has two, told apart by the co-signature guard). */
export function soapNoteTransitions(from: SoapNoteStatus, action: SoapNoteAction): SoapNoteTransition[] {
  return SOAP_NOTE_TRANSITIONS.filter((t) => t.from === from && t.action === action);
}

/** The actions allowed from a status, in table order, once each (shown in INVALID_TRANSITION details). */
export function allowedNoteActions(from: SoapNoteStatus): SoapNoteAction[] {
  return [...new Set(SOAP_NOTE_TRANSITIONS.filter((t) => t.from === from).map((t) => t.action))];
}
