import { defineConfig } from "tsup";
import { packageBuild } from "../../tsup.base.js";

// The worker thread's entry is built beside index.js: ThreadedSummaryRenderer loads it by URL.
export default defineConfig(packageBuild(["src/index.ts", "src/summary-render-worker.ts"]));
