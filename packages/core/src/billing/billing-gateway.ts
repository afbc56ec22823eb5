import type { Claim, ClaimDraft } from "./claim.js";
import type { JobQueue } from "../kernel/job-queue.js";
import type { OutboxRepository } from "../kernel/outbox-repository.js";

/** What the gateway reports back; the note's billing_status becomes `status`. */
export interface BillingSubmission {
  status: string;
  reference: string;
}

/**
 * Where a completed note's claim goes when the organisation auto-submits. It
 * runs inside the completion's transaction (`tx`), so a claim recorded in the
 * store commits with the completion or not at all. A gateway that talks to an
 * outside clearinghouse should record its intent through `tx` (e.g. a job)
 * and call out from a worker, never hold the transaction open over the network.
 */
export interface BillingGateway {
  submit(claim: ClaimDraft, tx: BillingGatewayRepositories, now: Date): Promise<BillingSubmission>;
}

/** What a gateway may write in the completion's transaction: the claim itself, a job to send it, an event. */
export interface BillingGatewayRepositories {
  claims: ClaimRepository;
  jobs: JobQueue;
  outbox: OutboxRepository;
}

/** Claims repository of the default gateway. */
export interface ClaimRepository {
  insert(claim: ClaimDraft & { status: string; createdAt: Date }): Promise<number>;
  /** The claim of a note, or undefined. */
  findByContextId(organisationId: number, contextId: string): Promise<Claim | undefined>;
}
