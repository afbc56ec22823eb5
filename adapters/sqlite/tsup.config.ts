import { defineConfig } from "tsup";
import { packageBuild } from "../../tsup.base.js";

// The checkpoint thread's entry is built beside index.js: WalCheckpointer loads it by URL.
export default defineConfig(packageBuild(["src/index.ts", "src/wal-checkpoint-worker.ts"]));
