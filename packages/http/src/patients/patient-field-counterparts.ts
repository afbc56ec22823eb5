type Contract = "v1" | "v2";

/**
 * The same patient field under its v1 and its v2 name, per object of the body.
 * One table, read both ways: a v2 name sent to v1 is answered with the v1 name
 * meant, and a v1 name sent to v2 with the v2 one.
 */
const COUNTERPARTS: Readonly<Record<"patient" | "address", ReadonlyArray<{ v1: string; v2: string }>>> = Object.freeze({
  patient: [
    { v1: "email_address", v2: "email" },
    { v1: "mobile", v2: "phone" },
    { v1: "sex", v2: "gender" },
    { v1: "patient_id", v2: "id" },
  ],
  address: [
    { v1: "line1", v2: "street" },
    { v1: "postal_code", v2: "zip_code" },
  ],
});

const OTHER: Record<Contract, Contract> = { v1: "v2", v2: "v1" };

/**
 * The `x-field-hints` annotation of a request object schema of `contract`:
 * the other contract's name of each field → "v1 uses email_address". The
 * schema validator adds the hint to "is not a known field".
 */
export function fieldHints(
  contract: Contract,
  object: keyof typeof COUNTERPARTS,
): { readonly "x-field-hints": Readonly<Record<string, string>> } {
  const hints = Object.fromEntries(
    COUNTERPARTS[object].map((pair) => [pair[OTHER[contract]], `${contract} uses ${pair[contract]}`]),
  );
  return { "x-field-hints": hints };
}
