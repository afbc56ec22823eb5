import { execFileSync, spawnSync } from "node:child_process";

const INSTALL =
  "install poppler-utils (Debian/Ubuntu: apt-get install poppler-utils, which npm test does itself when run as root; macOS: brew install poppler)";

/**
 * The text of a PDF as pdftotext (poppler-utils) reads it: an independent reader of what pdf-lib wrote. Where the
 * command is missing the assertion fails saying so and how to install it, not with a bare `spawnSync ENOENT`.
 */
export function pdftotext(pdf: Uint8Array, options: { layout?: boolean } = {}): string {
  if (spawnSync("pdftotext", ["-v"], { stdio: "ignore" }).error)
    throw new Error(`pdftotext is not installed: this test reads the PDF back with it; ${INSTALL}`);
  return execFileSync("pdftotext", [...(options.layout ? ["-layout"] : []), "-", "-"], {
    input: pdf,
    encoding: "utf8",
  });
}
