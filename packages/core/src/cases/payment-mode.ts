/** Spec 4.2's payment modes, shared by appointments and cases. */
export const PAYMENT_MODES = ["INSURANCE_PAY", "SELF_PAY", "CASH", "CARD", "UPI", "WALLET"] as const;
export type PaymentMode = (typeof PAYMENT_MODES)[number];
