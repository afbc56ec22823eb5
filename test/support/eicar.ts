/**
 * The EICAR anti-virus test file (68 bytes), put together at run time so that no file of the repository is one a
 * scanner flags. Every scanner detects it; it does nothing.
 */
export function eicarTestFile(): Uint8Array {
  const parts = ["X5O!P%@AP[4\\PZX54(P^)7CC)7}$", "EICAR-STANDARD-", "ANTIVIRUS-TEST-FILE!$H+H*"];
  return new TextEncoder().encode(parts.join(""));
}
