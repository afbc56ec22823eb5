/** Demo content: invented people and places, no real patient data. */
export const DEMO_ORGANISATION = { name: "Riverside Therapy Group", plan: "professional" as const };

export const DEMO_CLINICS = [
  { name: "Riverside Downtown Clinic", timeZone: "America/Chicago" },
  { name: "Riverside Northside Clinic", timeZone: "America/Chicago" },
];

/** Doctors by user id; `supervisor` is the user id of their supervising physician; `clinics` index DEMO_CLINICS. */
export const DEMO_DOCTORS = [
  { userId: 101, firstName: "Maya", lastName: "Okafor", npiStem: "123456789", supervisor: 103, clinics: [0, 1] },
  { userId: 102, firstName: "Daniel", lastName: "Reyes", npiStem: "198765432", supervisor: 103, clinics: [0] },
  { userId: 103, firstName: "Helen", lastName: "Marsh", npiStem: "145678912", supervisor: 104, clinics: [0, 1] },
  { userId: 104, firstName: "Samuel", lastName: "Brandt", npiStem: "176543218", supervisor: 103, clinics: [1] },
];

export const DEMO_CATEGORIES = [
  { name: "Initial Evaluation", type: "IN_PERSON", durationMinutes: 60 },
  { name: "Follow-up Visit", type: "IN_PERSON", durationMinutes: 45 },
  { name: "Re-evaluation", type: "IN_PERSON", durationMinutes: 45 },
  { name: "Telehealth Follow-up", type: "TELEHEALTH", durationMinutes: 30 },
  { name: "Discharge Visit", type: "IN_PERSON", durationMinutes: 30 },
];

export const DEMO_CANCELLATION_REASONS = [
  { reasonKey: "PATIENT_ILL", reasonLabel: "Patient is unwell", cancellationFee: 0 },
  { reasonKey: "LATE_CANCELLATION", reasonLabel: "Cancelled less than 24 hours ahead", cancellationFee: 25 },
  { reasonKey: "NO_TRANSPORT", reasonLabel: "Patient has no transport", cancellationFee: 0 },
  { reasonKey: "SCHEDULING_CONFLICT", reasonLabel: "Scheduling conflict", cancellationFee: 10 },
  { reasonKey: "PROVIDER_UNAVAILABLE", reasonLabel: "Provider unavailable", cancellationFee: 0 },
];

export const DEMO_SPECIALIZATIONS = ["MSK", "CHIROPRACTOR", "VESTIBULAR", "LYMPHATIC", "PEDIATRIC"];

const FIRST = [
  "Ava",
  "Liam",
  "Noah",
  "Emma",
  "Olivia",
  "Ethan",
  "Sophia",
  "Mason",
  "Isabella",
  "Lucas",
  "Mia",
  "Amir",
  "Chloe",
  "Mateo",
  "Priya",
  "Jonah",
  "Leah",
  "Omar",
  "Grace",
  "Kenji",
  "Rosa",
  "Felix",
  "Nadia",
  "Theo",
  "Zoe",
];
const LAST = [
  "Nguyen",
  "Patel",
  "Garcia",
  "Kowalski",
  "Johnson",
  "O'Brien",
  "Haddad",
  "Lindqvist",
  "Mensah",
  "Rossi",
  "Chen",
  "Dubois",
  "Silva",
  "Novak",
  "Fischer",
  "Moreau",
  "Tanaka",
  "Adeyemi",
  "Larsen",
  "Costa",
  "Walsh",
  "Ibrahim",
  "Morales",
  "Schmidt",
  "Kim",
];
const CITIES = [
  ["Springfield", "IL", "62701"],
  ["Madison", "WI", "53703"],
  ["Peoria", "IL", "61602"],
  ["Rockford", "IL", "61101"],
] as const;

/** The i-th demo patient (deterministic, so seeding twice finds the same people). */
export function demoPatient(i: number) {
  const first = FIRST[i % FIRST.length] as string;
  const last = LAST[(i * 7 + Math.floor(i / FIRST.length)) % LAST.length] as string;
  const [city, state, zip] = CITIES[i % CITIES.length] as readonly [string, string, string];
  const year = 1940 + ((i * 13) % 70);
  const month = String((i % 12) + 1).padStart(2, "0");
  const day = String((i % 28) + 1).padStart(2, "0");
  return {
    firstName: first,
    lastName: last,
    dateOfBirth: `${year}-${month}-${day}`,
    sex: (["FEMALE", "MALE", "OTHER", "UNDEFINED"] as const)[i % 4],
    phone: `555-01${String(i % 100).padStart(2, "0")}-${String(1000 + i).slice(-4)}`,
    email: `${first}.${last}.${i}@example.org`.toLowerCase().replace(/'/g, ""),
    address: { line1: `${100 + i} Main Street`, city, state, postalCode: zip, country: "US" },
  };
}

/**
 * A small therapy catalog. The descriptions are our own plain wording: CPT
 * descriptions are licensed text and are not shipped.
 */
export const DEMO_BILLING_CODES = [
  { code: "97110", description: "Exercise to build strength, endurance, range of motion or flexibility", timed: true },
  { code: "97112", description: "Retraining of balance, coordination, posture and movement", timed: true },
  { code: "97140", description: "Hands-on techniques such as mobilisation and manual traction", timed: true },
  { code: "97530", description: "Dynamic functional activities to improve performance", timed: true },
  { code: "97116", description: "Walking and gait practice, including stairs", timed: true },
  {
    code: "97161",
    description: "Physical therapy evaluation, low complexity",
    timed: false,
    noteTypes: ["INITIAL_SOAP"],
  },
  {
    code: "97162",
    description: "Physical therapy evaluation, moderate complexity",
    timed: false,
    noteTypes: ["INITIAL_SOAP"],
  },
  {
    code: "95992",
    description: "Repositioning manoeuvre for positional vertigo, per day",
    timed: false,
    specialities: ["VESTIBULAR"],
  },
];

/** Modifiers every demo code may carry. */
export const DEMO_MODIFIERS = [
  {
    cptModifierId: 1,
    cptModifierCode: "GP",
    className: "Therapy plan",
    description: "Delivered under a physical therapy plan of care",
    filter: true,
  },
  {
    cptModifierId: 2,
    cptModifierCode: "59",
    className: "Distinct service",
    description: "A separate, distinct service on the same day",
    filter: false,
  },
  {
    cptModifierId: 3,
    cptModifierCode: "KX",
    className: "Threshold",
    description: "Medically necessary above the annual threshold",
    filter: false,
  },
];
