import { defineConfig } from "tsup";
import { packageBuild } from "../../tsup.base.js";

// The CLI is a second entry; declarations are only for the library entry.
export default defineConfig(packageBuild(["src/index.ts", "src/cli.ts"], { dts: { entry: "src/index.ts" } }));
