import { describe, expect, it } from "vitest";
import type { Appointment } from "../appointments/appointment.js";
import type { Authorization } from "./authorization.js";
import type { PatientCase } from "./patient-case.js";
import type { SoapNote } from "../soap/soap-note.js";
import { caseVisits } from "./case-visits.js";
import {
  authRequiredStatus,
  localDate,
  reportedAuthorizationStatus,
  visitProblems,
  visitUsage,
} from "./visit-tracking.js";

const c = (over: Partial<PatientCase> = {}) =>
  ({
    id: 5,
    organisationId: 1,
    visitTrackRequired: true,
    caseVisitLimit: 0,
    numberOfPastVisits: 0,
    paymentMode: "INSURANCE_PAY",
    ...over,
  }) as PatientCase;
const auth = (over: Partial<Authorization> = {}) =>
  ({
    id: 9,
    referenceNumber: "A-1",
    status: "ACTIVE",
    effectiveStartDate: "2031-05-01",
    effectiveEndDate: "2031-05-31",
    authorizedVisits: 3,
    previouslyConsumedVisits: 0,
    ...over,
  }) as Authorization;
let nextId = 1;
const appointment = (iso: string, status: Appointment["status"], clinicId = 1) =>
  ({ id: nextId++, startsAt: new Date(iso), status, clinicId }) as Appointment;
const visit = (iso: string, status: Appointment["status"], clinicId = 1) =>
  caseVisits([appointment(iso, status, clinicId)], [])[0]!;
const note = (over: Partial<SoapNote>) =>
  ({
    completed: true,
    type: "FOLLOWUP_SOAP",
    appointmentId: null,
    clinicId: 1,
    serviceDateTime: new Date("2031-05-06T15:00:00Z"),
    ...over,
  }) as SoapNote;
const zone = (clinicId: number) => (clinicId === 1 ? "America/Chicago" : "UTC");

describe("visit tracking", () => {
  it("dates a visit in the clinic's time zone", () => {
    expect(localDate(new Date("2031-06-01T04:30:00Z"), "America/Chicago")).toBe("2031-05-31");
    expect(localDate(new Date("2031-06-01T04:30:00Z"), "UTC")).toBe("2031-06-01");
  });

  it("counts completed and booked visits, not cancelled or no-show, optionally within a window", () => {
    const visits = [
      visit("2031-05-02T15:00:00Z", "CHECKED_OUT"),
      visit("2031-05-03T15:00:00Z", "SCHEDULED"),
      visit("2031-05-04T15:00:00Z", "CANCELLED"),
      visit("2031-05-05T15:00:00Z", "NO_SHOW"),
      visit("2031-06-01T03:00:00Z", "IN_PROGRESS"),
    ];
    expect(visitUsage(visits, zone)).toEqual({ used: 1, booked: 2 });
    expect(visitUsage(visits, zone, { from: "2031-05-01", to: "2031-05-31" })).toEqual({ used: 1, booked: 2 });
    expect(visitUsage(visits, () => "UTC", { from: "2031-05-01", to: "2031-05-31" })).toEqual({ used: 1, booked: 1 });
  });

  it("counts a visit documented by a completed note: its appointment, or the note itself without one; not addenda", () => {
    const booked = appointment("2031-05-02T15:00:00Z", "IN_PROGRESS");
    const cancelled = appointment("2031-05-03T15:00:00Z", "CANCELLED");
    const notes = [
      note({ appointmentId: booked.id }),
      note({ appointmentId: cancelled.id }),
      note({}),
      note({ type: "ADDENDUM" }),
      note({ completed: false }),
    ];
    const visits = caseVisits([booked, cancelled], notes);
    expect(visits.map((v) => v.state)).toEqual(["completed", "none", "completed"]);
    expect(visitUsage(visits, zone)).toEqual({ used: 2, booked: 0 });
  });

  it("reports EXPIRED past the end date and derives auth_required_status", () => {
    expect(reportedAuthorizationStatus(auth(), "2031-06-01")).toBe("EXPIRED");
    expect(reportedAuthorizationStatus(auth(), "2031-05-31")).toBe("ACTIVE");
    expect(reportedAuthorizationStatus(auth({ status: "INACTIVE" }), "2031-06-01")).toBe("INACTIVE");
    expect(authRequiredStatus(c({ visitTrackRequired: false }), [], "2031-05-01")).toBe("AUTH_NOT_REQUIRED");
    expect(authRequiredStatus(c({ visitTrackRequired: false, paymentMode: "SELF_PAY" }), [], "2031-05-01")).toBe("NA");
    expect(authRequiredStatus(c(), [], "2031-05-01")).toBe("AUTH_REQUIRED");
    expect(authRequiredStatus(c(), [auth()], "2031-07-01")).toBe("AUTH_EXPIRED");
  });

  it("refuses the visit after the last one, outside the window, and not at all when untracked", () => {
    const two = [visit("2031-05-02T15:00:00Z", "CHECKED_OUT"), visit("2031-05-03T15:00:00Z", "SCHEDULED")];
    expect(visitProblems(c(), [auth()], two, "2031-05-10", "2031-05-01", zone)).toEqual([]);
    const full = visitProblems(c(), [auth({ previouslyConsumedVisits: 1 })], two, "2031-05-10", "2031-05-01", zone);
    expect(full).toEqual([
      expect.objectContaining({
        code: "VISIT_LIMIT_REACHED",
        details: expect.objectContaining({ scope: "authorization", used: 2, booked: 1, limit: 3 }),
      }),
    ]);
    expect(visitProblems(c(), [auth()], two, "2031-06-10", "2031-05-01", zone)[0]?.code).toBe("NO_VALID_AUTHORIZATION");
    const caseFull = visitProblems(
      c({ caseVisitLimit: 3, numberOfPastVisits: 1 }),
      [auth({ authorizedVisits: 10 })],
      two,
      "2031-05-10",
      "2031-05-01",
      zone,
    );
    expect(caseFull).toEqual([
      expect.objectContaining({
        code: "VISIT_LIMIT_REACHED",
        message: expect.stringContaining("3 of 3"),
        details: expect.objectContaining({ scope: "case" }),
      }),
    ]);
    expect(visitProblems(c({ visitTrackRequired: false }), [], two, "2031-06-10", "2031-05-01", zone)).toEqual([]);
  });
});
