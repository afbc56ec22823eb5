import { afterAll } from "vitest";

// Every test file: the migrated PostgreSQL template it made, if any, goes with it (test/support/engines.ts
// leaves its drop here; importing engines.ts itself would cost every test file its drivers).
afterAll(async () => {
  await (globalThis as { dropMigratedTemplate?: () => Promise<void> }).dropMigratedTemplate?.();
});
