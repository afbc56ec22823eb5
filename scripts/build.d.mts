/** A hash of a package's build inputs: its src/ (tests excluded), package.json, tsup config and the shared configs. */
export declare function inputsHash(packageDir: string): string;
/** Builds the packages whose inputs changed; returns the workspaces rebuilt. */
export declare function buildChanged(options?: {
  declarations?: boolean;
  node?: string;
  env?: NodeJS.ProcessEnv;
  /** One workspace package's directory: only it is built. */
  only?: string;
}): string[];
/** buildChanged with one line on stderr saying what it rebuilt; false when a build failed. */
export declare function buildChangedAndSay(options?: {
  declarations?: boolean;
  node?: string;
  env?: NodeJS.ProcessEnv;
  only?: string;
}): boolean;
