import { describe, expect, it } from "vitest";
import type { AuthorizationView } from "../cases/authorization-usage.js";
import type { Authorization } from "../cases/authorization.js";
import {
  authorizationVerdict,
  cosignVerdict,
  planCertificationVerdict,
  quarantineVerdict,
  ruleKeyOf,
} from "./task-raising-rules.js";

const NOW = new Date("2031-05-10T15:00:00Z");
const TODAY = "2031-05-10";
const openCase = { treatmentStatus: "ACTIVE" as const, therapistIds: [104, 105], clinicId: 3 };

function view(over: Partial<Authorization> = {}, remainingVisits = 5): AuthorizationView {
  const authorization = {
    id: 9,
    organisationId: 1,
    caseId: 4,
    patientId: 7,
    referenceNumber: "AUTH-1",
    effectiveStartDate: "2031-05-01",
    effectiveEndDate: "2031-06-30",
    authorizedVisits: 10,
    status: "ACTIVE",
    ...over,
  } as Authorization;
  return { authorization, reportedStatus: authorization.status, currentVisits: 0, bookedVisits: 0, remainingVisits };
}

describe("task raising rules", () => {
  it("authorization_low: two visits left raises, three does not", () => {
    expect(authorizationVerdict(view({}, 2), openCase, TODAY, NOW)).toMatchObject({
      holds: true,
      task: { assigneeUserId: 104, patientId: 7, clinicId: 3, priority: "normal" },
    });
    expect(authorizationVerdict(view({}, 3), openCase, TODAY, NOW)).toEqual({
      holds: false,
      trigger: "resolve",
      resolution: "authorization_extended",
    });
    expect(authorizationVerdict(view({}, 0), openCase, TODAY, NOW)).toMatchObject({ task: { priority: "high" } });
  });

  it("authorization_low: an end seven days away raises, eight does not; a past end raises with high priority", () => {
    expect(authorizationVerdict(view({ effectiveEndDate: "2031-05-17" }), openCase, TODAY, NOW).holds).toBe(true);
    expect(authorizationVerdict(view({ effectiveEndDate: "2031-05-18" }), openCase, TODAY, NOW).holds).toBe(false);
    const ended = authorizationVerdict(view({ effectiveEndDate: "2031-05-09" }), openCase, TODAY, NOW);
    expect(ended).toMatchObject({ holds: true, task: { priority: "high" } });
    // Due the earlier of the end date (noon UTC) and three days; a day from now once the end has passed.
    expect(authorizationVerdict(view({ effectiveEndDate: "2031-05-11" }), openCase, TODAY, NOW)).toMatchObject({
      task: { dueAt: new Date("2031-05-11T12:00:00Z") },
    });
    expect(ended).toMatchObject({ task: { dueAt: new Date("2031-05-11T15:00:00Z") } });
  });

  it("authorization_low: a discharged case, an inactive or deleted authorization withdraws; no visits authorized counts only the end", () => {
    for (const [v, c] of [
      [view({}, 0), { ...openCase, treatmentStatus: "DISCHARGED" as const }],
      [view({ status: "INACTIVE" }, 0), openCase],
      [undefined, openCase],
      [view({}, 0), undefined],
    ] as const)
      expect(authorizationVerdict(v, c, TODAY, NOW)).toEqual({
        holds: false,
        trigger: "withdraw",
        resolution: "condition_cleared",
      });
    expect(authorizationVerdict(view({ authorizedVisits: 0 }, 0), openCase, TODAY, NOW).holds).toBe(false);
    expect(authorizationVerdict(view({}, 1), { ...openCase, therapistIds: [] }, TODAY, NOW)).toMatchObject({
      task: { assigneeUserId: null },
    });
  });

  it("plan_certification: due soon raises; certified resolves; a new uncertified period not yet due withdraws", () => {
    const plan = (start: string, certifiedOn: string | null) => ({
      patientId: 7,
      certificationStart: start,
      certificationEnd: "2031-08-01",
      certifiedOn,
    });
    // Evaluated 2031-04-15: due 2031-05-15, within 10 days of TODAY.
    expect(planCertificationVerdict(plan("2031-04-15", null), openCase, true, 104, TODAY, NOW)).toMatchObject({
      holds: true,
      task: { title: "Certify the plan of care", assigneeUserId: 104, priority: "normal" },
    });
    expect(planCertificationVerdict(plan("2031-04-15", "2031-04-20"), openCase, true, 104, TODAY, NOW)).toEqual({
      holds: false,
      trigger: "resolve",
      resolution: "certified",
    });
    // A re-evaluation on 2031-05-08 starts a new period, uncertified and not due: nothing was certified.
    expect(planCertificationVerdict(plan("2031-05-08", null), openCase, true, 104, TODAY, NOW)).toEqual({
      holds: false,
      trigger: "withdraw",
      resolution: "new_period",
    });
    expect(planCertificationVerdict(plan("2031-04-15", null), openCase, false, 104, TODAY, NOW)).toEqual({
      holds: false,
      trigger: "withdraw",
      resolution: "condition_cleared",
    });
  });

  it("soap_cosign: COSIGN raises for the supervisor; co-signed resolves; returned or gone withdraws", () => {
    const note = { status: "COSIGN", patientId: 7, clinicId: 3, supervisingPhysician: 103 };
    expect(cosignVerdict(note, NOW)).toMatchObject({
      holds: true,
      task: { assigneeUserId: 103, dueAt: new Date("2031-05-12T15:00:00Z") },
    });
    expect(cosignVerdict({ ...note, status: "INCOMPLETED" }, NOW)).toMatchObject({ trigger: "resolve" });
    expect(cosignVerdict({ ...note, status: "COMPLETED" }, NOW)).toMatchObject({ resolution: "cosigned" });
    expect(cosignVerdict({ ...note, status: "REVISION" }, NOW)).toMatchObject({ trigger: "withdraw" });
    expect(cosignVerdict(undefined, NOW)).toMatchObject({ trigger: "withdraw" });
  });

  it("document_quarantined: quarantined raises for the uploader; anything else resolves", () => {
    const doc = { status: "quarantined", patientId: 7, clinicId: null, uploadedByUserId: 101 };
    expect(quarantineVerdict(doc, NOW)).toMatchObject({ holds: true, task: { assigneeUserId: 101, priority: "high" } });
    for (const status of ["deleted", "available"])
      expect(quarantineVerdict({ ...doc, status }, NOW)).toMatchObject({
        holds: false,
        resolution: "document_deleted",
      });
    expect(quarantineVerdict(undefined, NOW).holds).toBe(false);
  });

  it("keys one task per rule and subject", () => {
    expect(ruleKeyOf("soap_cosign", "ctx-1")).toBe("soap_cosign:soap_note:ctx-1");
    expect(ruleKeyOf("authorization_low", "9")).toBe("authorization_low:authorization:9");
  });
});
