/** Where one organisation's inquiries go: the clearinghouse endpoint, its credentials and the X12 envelope ids. */
export interface Clearinghouse {
  /** https:// endpoint taking a 270 as the request body and answering the 271 (CAQH CORE real-time). */
  url: string;
  username: string;
  password: string;
  /** ISA06/GS02: the submitter id the clearinghouse assigned. */
  submitterId: string;
  /** ISA08/GS03: the clearinghouse's receiver id. */
  receiverId: string;
  /** The billing provider the inquiry is made for (2100B NM1*1P). */
  providerNpi: string;
  providerName: string;
  /** CAQH CORE's real-time rule: 20 s by default. */
  timeoutMs?: number;
  /** Extra certificate authorities (PEM) to trust, e.g. a test clearinghouse's. */
  ca?: string;
  /** ISA15: P (production, default) or T (test). */
  usage?: "P" | "T";
}

export const DEFAULT_TIMEOUT_MS = 20_000;
