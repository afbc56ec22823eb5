import type { Options } from "tsup";

/** Build settings every workspace package shares: ESM for the supported Node lines (22 and 24), with declarations and source maps. */
export function packageBuild(entry: string[] = ["src/index.ts"], overrides: Options = {}): Options {
  return { entry, format: ["esm"], dts: true, sourcemap: true, clean: true, target: "node22", ...overrides };
}
