/**
 * Where one organisation's eligibility inquiries go and how they are addressed: an X12 clearinghouse's endpoint,
 * its credentials and envelope ids (the shape @openpractice/x12's gateway reads).
 */
export interface ClearinghouseConnection {
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
  timeoutMs?: number | undefined;
  /** Extra certificate authorities (PEM) to trust, e.g. a test clearinghouse's. */
  ca?: string | undefined;
  /** ISA15: P (production, default) or T (test). */
  usage?: "P" | "T" | undefined;
  /**
   * Set by an organisation through the API rather than by the operator: the gateway connects only to public
   * addresses (no loopback, private or link-local ranges) unless the host allows private ones (development).
   */
  tenantSupplied?: boolean | undefined;
}
