/** One billed line of a claim: a billing code with its modifiers, units and minutes. */
export interface ClaimLine {
  code: string;
  modifiers: string[];
  units: number;
  minutes: number;
  /**
   * The share of the fee schedule amount the payer pays: 85 for a line with CQ or CO (a therapy assistant's service
   * past the de minimis rule, docs/medicare-therapy.md), else 100. Absent on claims recorded before it existed (100).
   */
  paymentPercent?: number | undefined;
}

/** What a completed note sends to billing. */
export interface ClaimDraft {
  organisationId: number;
  contextId: string;
  patientId: number;
  serviceCaseId: number | null;
  /** The clinic-local service date, YYYY-MM-DD. */
  serviceDate: string;
  renderingPhysician: number;
  /** ICD-10 codes of the Assessment, primary first. */
  diagnosisCodes: string[];
  lines: ClaimLine[];
}

/** A claim as the default gateway records it. */
export interface Claim extends ClaimDraft {
  id: number;
  status: string;
  /** The gateway's reference for the claim (a clearinghouse id, or claim-<id> for the stored claims). */
  reference: string;
  createdAt: Date;
}
