import { defaultClientConditions, defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

// Tests import workspace packages from source through the "source" export
// condition, so a test run never depends on stale dist/ output (CLI tests
// spawn the built CLI; `npm test` builds first). Only "source" is added to
// vite's defaults: an "import" condition would leak into Node's require() of
// CommonJS dependencies (pg requires pg-pool) and hand them ESM namespaces.
export default defineConfig({
  resolve: { conditions: ["source", ...defaultClientConditions] },
  // Vite's "module" condition is dropped on the server side: Node ignores it, and packages that map it to bundler-only
  // builds (the AWS SDK's dist-es, with extensionless imports) failed to load from node_modules.
  ssr: {
    resolve: {
      conditions: ["source", ...defaultServerConditions.filter((c) => c !== "module")],
      externalConditions: ["source"],
    },
  },
  test: {
    include: [
      "packages/*/src/**/*.test.ts",
      "adapters/*/src/**/*.test.ts",
      "test/**/*.test.ts",
      "examples/**/*.test.ts",
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Background work (jobs, deliveries, summaries) is awaited by polling the asserted state (CONTRIBUTING.md): long
    // enough for a loaded CI machine, polled often enough to stay quick.
    expect: { poll: { timeout: 10_000, interval: 50 } },
    // Drops the migrated PostgreSQL template a test file copied its databases from (test/support/engines.ts).
    setupFiles: ["test/support/drop-migrated-template.setup.ts"],
    // Prints the versions of the engine servers the run tests on (the PostgreSQL suites run on several).
    globalSetup: ["test/support/server-versions.global-setup.ts"],
  },
});
