#!/usr/bin/env node
// The command-line tools the tests call besides Node: pdftotext (poppler-utils) reads the SOAP summary PDFs back,
// an independent reader of what pdf-lib wrote; jq reads ids out of replies in the documented examples (test/docs);
// age reads and writes the encrypted backups (test/cli/backup-encryption.test.ts).
// `npm test` and .ci/with-databases.sh run this first. A missing tool is installed from Debian's packages when this
// machine can (apt-get, as root); otherwise one line says what is missing, which tests need it and how to get it,
// and the tests that need it fail saying the same.
//
// Plain JavaScript for old Node versions: the quick test command runs it before the launcher brings Node 24.
import { spawnSync } from "node:child_process";

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
];

const onPath = (command) => spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
const say = (line) => process.stderr.write(`test tools: ${line}\n`);

const missing = TOOLS.filter((tool) => !onPath(tool.command));
const canInstall =
  process.platform === "linux" && typeof process.getuid === "function" && process.getuid() === 0 && onPath("apt-get");

if (missing.length > 0 && canInstall) {
  const packages = missing.map((tool) => tool.debian);
  say(`installing ${packages.join(" ")} from Debian's packages`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const update = spawnSync("apt-get", ["update", "-qq"], { stdio: ["ignore", "ignore", "inherit"], env });
  if (update.status === 0)
    spawnSync("apt-get", ["install", "-y", "-qq", ...packages], { stdio: ["ignore", "ignore", "inherit"], env });
}
for (const tool of TOOLS.filter((t) => !onPath(t.command)))
  say(
    `${tool.command} is missing; ${tool.usedBy} need it (Debian/Ubuntu: apt-get install ${tool.debian}; macOS: brew install ${tool.brew})`,
  );
