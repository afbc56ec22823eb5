import { defineConfig } from "vitest/config";

// Tests import workspace packages from source through the "source" export
// condition, so a test run never depends on stale dist/ output (CLI tests
// spawn the built CLI; `npm test` builds first).
const conditions = ["source", "import", "module", "node", "default"];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ["source"] } },
  test: {
    include: ["packages/*/src/**/*.test.ts", "adapters/*/src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
