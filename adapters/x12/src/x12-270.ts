import type { EligibilityInquiry } from "@openpractice/core";
import x12 from "node-x12";
import type { Clearinghouse } from "./clearinghouse.js";

const { JSEDINotation, X12Generator } = x12;

/** The delimiters of the documents we write: * elements, ~ segments, : components, ^ repetitions. */
export const X12_DELIMITERS = {
  elementDelimiter: "*",
  segmentTerminator: "~",
  subElementDelimiter: ":",
  repetitionDelimiter: "^",
  endOfLine: "",
};

/** X12 identifiers may not hold the delimiters; names are upper-cased as payers match them. */
const clean = (text: string, max: number) =>
  text
    .normalize("NFKD")
    .replace(/[^\x20-\x7e]/g, "")
    .replace(/[*~:^]/g, " ")
    .trim()
    .toUpperCase()
    .slice(0, max);
const padded = (text: string, width: number) => clean(text, width).padEnd(width, " ");
const compactDate = (iso: string) => iso.replaceAll("-", "");

/** The 270's control numbers and the moment it is written. */
export interface EnvelopeIds {
  controlNumber: number;
  now: Date;
}

/**
 * An ASC X12 005010X279A1 270 for one inquiry: the payer (2100A), the provider (2100B), the subscriber (2100C) and,
 * when the patient is not the subscriber, the dependent (2100D), with one EQ per service type asked.
 */
export function build270(inquiry: EligibilityInquiry, ch: Clearinghouse, ids: EnvelopeIds): string {
  const iso = ids.now.toISOString();
  const date8 = compactDate(iso.slice(0, 10));
  const time4 = iso.slice(11, 16).replace(":", "");
  const control = String(ids.controlNumber).padStart(9, "0");
  const jsen = new JSEDINotation(
    [
      "00",
      " ".repeat(10),
      "00",
      " ".repeat(10),
      "ZZ",
      padded(ch.submitterId, 15),
      "ZZ",
      padded(ch.receiverId, 15),
      date8.slice(2),
      time4,
      "^",
      "00501",
      control,
      "0",
      ch.usage ?? "P",
      ":",
    ],
    X12_DELIMITERS,
  );
  const group = jsen.addFunctionalGroup([
    "HS",
    clean(ch.submitterId, 15),
    clean(ch.receiverId, 15),
    date8,
    time4,
    String(ids.controlNumber),
    "X",
    "005010X279A1",
  ]);
  const tx = group.addTransaction(["270", "0001", "005010X279A1"]);
  const { coverage, patient } = inquiry;
  const dependent = coverage.subscriber.relationship !== "self";
  tx.addSegment("BHT", ["0022", "13", clean(inquiry.traceNumber, 50), date8, time4]);
  tx.addSegment("HL", ["1", "", "20", "1"]);
  tx.addSegment("NM1", [
    "PR",
    "2",
    clean(coverage.payer.name, 60),
    "",
    "",
    "",
    "",
    "PI",
    clean(coverage.payer.payerId ?? "", 80),
  ]);
  tx.addSegment("HL", ["2", "1", "21", "1"]);
  tx.addSegment("NM1", ["1P", "2", clean(ch.providerName, 60), "", "", "", "", "XX", clean(ch.providerNpi, 10)]);
  tx.addSegment("HL", ["3", "2", "22", dependent ? "1" : "0"]);
  tx.addSegment("TRN", ["1", clean(inquiry.traceNumber, 50), `9${clean(ch.submitterId, 9)}`]);
  const subscriber = dependent
    ? {
        first: coverage.subscriber.firstName ?? "",
        last: coverage.subscriber.lastName ?? "",
        dob: coverage.subscriber.dateOfBirth,
      }
    : { first: patient.firstName, last: patient.lastName, dob: patient.dateOfBirth };
  tx.addSegment("NM1", [
    "IL",
    "1",
    clean(subscriber.last, 60),
    clean(subscriber.first, 35),
    "",
    "",
    "",
    "MI",
    clean(coverage.insuranceNumber, 80),
  ]);
  if (coverage.groupNumber) tx.addSegment("REF", ["6P", clean(coverage.groupNumber, 50)]);
  if (subscriber.dob) tx.addSegment("DMG", ["D8", compactDate(subscriber.dob)]);
  if (dependent) {
    tx.addSegment("HL", ["4", "3", "23", "0"]);
    tx.addSegment("NM1", ["03", "1", clean(patient.lastName, 60), clean(patient.firstName, 35)]);
    if (patient.dateOfBirth) tx.addSegment("DMG", ["D8", compactDate(patient.dateOfBirth)]);
  }
  tx.addSegment("DTP", ["291", "D8", compactDate(inquiry.serviceDate)]);
  for (const type of inquiry.serviceTypes) tx.addSegment("EQ", [type]);
  return new X12Generator(jsen, X12_DELIMITERS).toString();
}
