import type { BillingGateway } from "./billing-gateway.js";

/** The reference the default gateway gives a claim it recorded (claim rows carry no other). */
export const storedClaimReference = (claimId: number) => `claim-${claimId}`;

/** The default BillingGateway: records the claim and its lines in the store, status SUBMITTED. */
export const storedClaimsGateway: BillingGateway = {
  async submit(claim, tx, now) {
    const id = await tx.claims.insert({ ...claim, status: "SUBMITTED", createdAt: now });
    return { status: "SUBMITTED", reference: storedClaimReference(id) };
  },
};
