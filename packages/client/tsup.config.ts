import { defineConfig } from "tsup";
import { packageBuild } from "../../tsup.base.js";

// Dual, unlike the server packages: integrators' CommonJS projects type-check it under any `module` setting (node16
// included) and bundlers that cannot require() ES modules load it. It keeps no state, so two copies do no harm.
export default defineConfig(packageBuild(["src/index.ts"], { format: ["esm", "cjs"] }));
