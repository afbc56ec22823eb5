#!/usr/bin/env node
// The command-line tools the tests call besides Node: pdftotext (poppler-utils) reads the SOAP summary PDFs back,
// an independent reader of what pdf-lib wrote; jq reads ids out of replies in the documented examples (test/docs);
// age reads and writes the encrypted backups (test/cli/backup-encryption.test.ts); clamd (clamav-daemon) is the real
// scanner the ClamAV adapter's tests start with a signature database of their own (test/support/clamd.ts).
// `npm test` and .ci/with-databases.sh run this first. A missing tool is installed from Debian's packages when this
// machine can (apt-get, as root); otherwise one line says what is missing, which tests need it and how to get it,
// and the tests that need it fail saying the same.
//
// Plain JavaScript for old Node versions: the quick test command runs it before the launcher brings Node 24.
import { spawnSync } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";

const TOOLS = [
  {
    command: "pdftotext",
    debian: "poppler-utils",
    brew: "poppler",
    usedBy: "the PDF read-back of the SOAP summary tests",
  },
  { command: "jq", debian: "jq", brew: "jq", usedBy: "the documented examples (test/docs)" },
  // age, the reference implementation, decrypts the encrypted backups and encrypts one for restore.
  {
    command: "age",
    debian: "age",
    brew: "age",
    usedBy: "the encrypted backup tests (test/cli/backup-encryption.test.ts)",
  },
  // Debian puts clamd in /usr/sbin, which is not on every user's PATH. The package's own services (clamd with the
  // system database, freshclam's downloads) are not what the tests use and are kept from starting (below); no
  // recommends, so clamdscan is not pulled in.
  {
    command: "clamd",
    paths: ["/usr/sbin/clamd", "/usr/local/sbin/clamd", "/opt/homebrew/sbin/clamd"],
    debian: "clamav-daemon",
    brew: "clamav",
    usedBy: "the ClamAV adapter's tests (adapters/clamav, test/support/clamd.ts)",
  },
];

const onPath = (command) => spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
const installed = (tool) => onPath(tool.command) || (tool.paths ?? []).some((path) => existsSync(path));
const say = (line) => process.stderr.write(`test tools: ${line}\n`);

// Debian's policy layer for maintainer scripts: exit 101 forbids every service start. Installing clamav-daemon
// would otherwise start a system clamd (which exits without a database) and freshclam's daemon (which retries
// downloads that cannot be reached from every machine); the tests start their own clamd. Written only where no
// policy exists (container images ship one), and removed afterwards.
const POLICY_RC = "/usr/sbin/policy-rc.d";
const NO_SERVICE_STARTS =
  "#!/bin/sh\n# scripts/test-tools.mjs: no service starts while it installs test tools.\nexit 101\n";

const missing = TOOLS.filter((tool) => !installed(tool));
const canInstall =
  process.platform === "linux" && typeof process.getuid === "function" && process.getuid() === 0 && onPath("apt-get");

if (missing.length > 0 && canInstall) {
  const packages = missing.map((tool) => tool.debian);
  say(`installing ${packages.join(" ")} from Debian's packages`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const update = spawnSync("apt-get", ["update", "-qq"], { stdio: ["ignore", "ignore", "inherit"], env });
  const ownPolicy = !existsSync(POLICY_RC);
  if (ownPolicy) writeFileSync(POLICY_RC, NO_SERVICE_STARTS, { mode: 0o755 });
  try {
    if (update.status === 0)
      spawnSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...packages], {
        stdio: ["ignore", "ignore", "inherit"],
        env,
      });
  } finally {
    if (ownPolicy) rmSync(POLICY_RC, { force: true });
  }
}
for (const tool of TOOLS.filter((t) => !installed(t)))
  say(
    `${tool.command} is missing; ${tool.usedBy} need it (Debian/Ubuntu: apt-get install ${tool.debian}; macOS: brew install ${tool.brew})`,
  );
