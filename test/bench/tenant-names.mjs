// Name frequencies for the multi-tenant fixture (tenant-fixture.mjs): common
// names drawn with Zipf-like weights, so that a common last name ("Smith") holds
// about 1.8% of all patients and a common first name ("James") about 2.5%, as in
// a United States practice, and a long tail of rare last names made from
// syllables, so that a full name can be rare. A few names carry accents so the
// folded search text differs from the stored name.

export const FIRST_NAMES = (
  "James Mary Michael Patricia Robert Jennifer John Linda David Elizabeth William Barbara Richard Susan Joseph " +
  "Jessica Thomas Sarah Christopher Karen Charles Lisa Daniel Nancy Matthew Betty Anthony Sandra Mark Margaret " +
  "Donald Ashley Steven Kimberly Andrew Emily Paul Donna Joshua Michelle Kenneth Carol Kevin Amanda Brian Melissa " +
  "George Deborah Timothy Stephanie Ronald Rebecca Jason Sharon Edward Laura Jeffrey Cynthia Ryan Dorothy Jacob " +
  "Amy Gary Kathleen Nicholas Angela Eric Shirley Jonathan Emma Stephen Brenda Larry Pamela Justin Nicole Scott " +
  "Anna Brandon Samantha Benjamin Katherine Samuel Christine Gregory Debra Alexander Rachel Patrick Carolyn Frank " +
  "Janet Raymond Maria Jack Olivia Dennis Heather Jerry Helen Tyler Catherine Aaron Diane José Julie Adam Victoria " +
  "Nathan Joyce Henry Lauren Zachary Kelly Douglas Christina Peter Ruth Kyle Joan Noah Virginia Ethan Judith " +
  "Jeremy Evelyn Christian Hannah Walter Andrea Keith Megan Austin Cheryl Roger Jacqueline Terry Madison Sean " +
  "Teresa Gerald Abigail Carl Sophia Dylan Martha Harold Sara Jordan Gloria Jesse Janice Bryan Kathryn Lawrence " +
  "Ann Arthur Isabella Gabriel Judy Bruce Charlotte Logan Julia Billy Grace Joe Amber Alan Alice Juan Jean Elijah " +
  "Denise Willie Frances Albert Danielle Wayne Marilyn Randy Natalie Mason Beverly Vincent Diana Liam Brittany " +
  "Roy Theresa Bobby Kayla Caleb Alexis Bradley Doris Russell Lori Lucas Tiffany Renée Zoë Chloé Björn Søren"
).split(" ");

export const COMMON_LAST_NAMES = (
  "Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson " +
  "Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis " +
  "Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera " +
  "Campbell Mitchell Carter Roberts Gomez Phillips Evans Turner Diaz Parker Cruz Edwards Collins Reyes Stewart " +
  "Morris Morales Murphy Cook Rogers Gutierrez Ortiz Morgan Cooper Peterson Bailey Reed Kelly Howard Ramos Kim " +
  "Cox Ward Richardson Watson Brooks Chavez Wood James Bennett Gray Mendoza Ruiz Hughes Price Alvarez Castillo " +
  "Sanders Patel Myers Long Ross Foster Jimenez Powell Jenkins Perry Russell Sullivan Bell Coleman Butler " +
  "Henderson Barnes Gonzales Fisher Vasquez Simmons Romero Jordan Patterson Alexander Hamilton Graham Reynolds " +
  "Griffin Wallace Moreno West Cole Hayes Bryant Herrera Gibson Ellis Tran Medina Aguilar Stevens Murray Ford " +
  "Castro Marshall Owens Harrison Fernandez McDonald Woods Washington Kennedy Wells Vargas Henry Chen Freeman " +
  "Webb Tucker Guzman Burns Crawford Olson Simpson Porter Hunter Gordon Mendez Silva Shaw Snyder Mason Dixon " +
  "Muñoz Hunt Hicks Holmes Palmer Wagner Black Robertson Boyd Rose Stone Salazar Fox Warren Mills Meyer Rice " +
  "Schmidt Garza Daniels Ferguson Nichols Stephens Soto Weaver Ryan Gardner Payne Grant Dunn Kelley Spencer " +
  "Hawkins Arnold Pierce Vázquez Hansen Peters Santos Hart Bradley Knight Elliott Cunningham Duncan Armstrong " +
  "Hudson Carroll Lane Riley Andrews Alvarado Ray Delgado Berry Perkins Hoffman Johnston Matthews Peña Richards " +
  "Willis Carpenter Lawrence Sandoval Müller O'Brien Søndergaard Núñez Kowalski Haddad Lindqvist Mensah"
).split(" ");

// Share of patients whose last name comes from the rare tail.
export const RARE_LAST_NAME_SHARE = 0.4;
const SYLLABLES = (
  "ab ad al an ar as bel ber bra cor dan del dor el en er fal fer gan gor hal har ka kel kor la lan len lor ma " +
  "mar mel mor na nel nor or ra ran rel ros sa sel sor ta tel tor ul va vel vor wen wil yar zan zel"
).split(" ");

/** The rare last name number `n` (0 ≤ n < SYLLABLES³): three syllables, capitalised ("Belkorwen"). */
export function rareLastName(n) {
  const s = SYLLABLES.length;
  const name = SYLLABLES[n % s] + SYLLABLES[Math.floor(n / s) % s] + SYLLABLES[Math.floor(n / (s * s)) % s];
  return name[0].toUpperCase() + name.slice(1);
}
export const RARE_LAST_NAMES = SYLLABLES.length ** 3;

/**
 * Cumulative weights ∝ 1/(rank + offset) over a list: a Zipf-like draw whose
 * head is not as steep as 1/rank (offset 12 gives the first name about 7% of the list's share).
 */
export function zipfCumulative(length, offset = 12) {
  const weights = Array.from({ length }, (_, k) => 1 / (k + 1 + offset));
  const total = weights.reduce((a, b) => a + b, 0);
  let sum = 0;
  return weights.map((w) => (sum += w / total));
}

/** Index drawn from cumulative weights `cumulative` with the uniform number `u` in [0, 1). */
export function drawIndex(cumulative, u) {
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] > u) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
