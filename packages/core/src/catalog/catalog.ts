/** An appointment category (visit kind) of an organisation, e.g. "Initial evaluation". */
export interface AppointmentCategory {
  id: number;
  organisationId: number;
  name: string;
  /** The category's type, e.g. IN_PERSON or TELEHEALTH. */
  type: string;
  durationMinutes: number;
  /** How calendars show it: "#RRGGBB", or null for the calendar's own. */
  colour: string | null;
  /** An inactive category cannot be booked; appointments made with it keep it. */
  active: boolean;
}

/** A reason an organisation accepts for cancelling an appointment, with its fee. */
export interface CancellationReason {
  id: number;
  organisationId: number;
  reasonKey: string;
  reasonLabel: string;
  cancellationFee: number;
  status: "ACTIVE" | "INACTIVE";
}

/** Specializations an organisation may open cases in (spec 4.2). */
export const KNOWN_SPECIALIZATIONS = ["MSK", "CHIROPRACTOR", "LYMPHATIC", "VESTIBULAR", "PEDIATRIC", "NEURO"] as const;
