import { existsSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe } from "vitest";

/** The shared workspace's ICD-10-CM files (CMS order files), beside the repository: `../shared/data/icd10cm/`. */
export const ICD10CM_DATA = fileURLToPath(new URL("../../../shared/data/icd10cm/", import.meta.url));

/**
 * `describe` for suites that read files of the shared workspace. When a file is missing (a checkout without
 * `../shared`), the suites are skipped and the test file says so in one line on stderr: which suites, which file
 * is missing and why they need it. With the files present (CI), they run.
 */
export function describeWithSharedFiles(testFile: string, files: string[]): (title: string, body: () => void) => void {
  const missing = files.filter((f) => !existsSync(f));
  if (missing.length === 0) return (title, body) => void describe(title, body);
  const skipped: string[] = [];
  queueMicrotask(() => {
    const name = relative(process.cwd(), fileURLToPath(testFile));
    console.warn(
      `SKIPPED in ${name}: ${skipped.map((t) => `"${t}"`).join(" and ")}, because ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} absent (the CMS ICD-10-CM files of the shared workspace, ../shared/data/icd10cm beside the repository; CI has them)`,
    );
  });
  return (title, body) => {
    skipped.push(title);
    describe.skip(title, body);
  };
}
