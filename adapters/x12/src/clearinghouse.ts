import type { ClearinghouseConnection } from "@openpractice/core";

/** Where one organisation's inquiries go: the clearinghouse endpoint, its credentials and the X12 envelope ids. */
export type Clearinghouse = ClearinghouseConnection;

export const DEFAULT_TIMEOUT_MS = 20_000;
