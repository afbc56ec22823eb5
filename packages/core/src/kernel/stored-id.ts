/**
 * The largest row key every engine stores (PostgreSQL integer, MariaDB INT): 2^31 - 1. A larger id names
 * nothing, and PostgreSQL would refuse it as out of range for integer, so ids are checked against it before
 * they reach a store.
 */
export const MAX_STORED_ID = 2_147_483_647;
