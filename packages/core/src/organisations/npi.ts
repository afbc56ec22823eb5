/**
 * National Provider Identifier check (CMS): 10 digits whose last digit is the
 * Luhn check digit computed over "80840" followed by the first nine digits.
 */
export function isValidNpi(npi: string): boolean {
  if (!/^\d{10}$/.test(npi)) return false;
  return npiCheckDigit(npi.slice(0, 9)) === Number(npi[9]);
}

/** The check digit for a 9-digit NPI stem. */
export function npiCheckDigit(stem: string): number {
  let sum = 24; // the constant contribution of the "80840" prefix
  for (let i = 0; i < 9; i++) {
    let d = Number(stem[8 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}
