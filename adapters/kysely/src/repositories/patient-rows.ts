import type { Patient, PatientRecord, PatientStatus, Sex } from "@openpractice/core";
import type { Insertable, Selectable } from "kysely";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { PatientsTable } from "../tables/patients.js";

export function patientToRow(r: PatientRecord): Insertable<PatientsTable> {
  return {
    organisation_id: r.organisationId,
    clinic_id: r.clinicId,
    first_name: r.firstName,
    middle_name: r.middleName,
    last_name: r.lastName,
    date_of_birth: r.dateOfBirth,
    sex: r.sex,
    phone: r.phone,
    email: r.email,
    address_line1: r.address.line1,
    address_line2: r.address.line2,
    address_city: r.address.city,
    address_state: r.address.state,
    address_postal_code: r.address.postalCode,
    address_country: r.address.country,
    emergency_name: r.emergencyContact.name,
    emergency_relationship: r.emergencyContact.relationship,
    emergency_phone: r.emergencyContact.phone,
    insurance_provider: r.insurance.provider,
    insurance_policy_number: r.insurance.policyNumber,
    insurance_group_number: r.insurance.groupNumber,
    status: r.status,
    identity_key: r.identityKey,
    search_text: r.searchText,
    first_name_sort: r.firstNameSort,
    last_name_sort: r.lastNameSort,
    created_at: toDbTime(r.createdAt),
    updated_at: toDbTime(r.updatedAt),
  };
}

export function rowToPatient(row: Selectable<PatientsTable>): Patient {
  return {
    id: Number(row.id),
    organisationId: Number(row.organisation_id),
    clinicId: row.clinic_id === null ? null : Number(row.clinic_id),
    firstName: row.first_name,
    middleName: row.middle_name,
    lastName: row.last_name,
    dateOfBirth: row.date_of_birth,
    sex: row.sex as Sex,
    phone: row.phone,
    email: row.email,
    address: {
      line1: row.address_line1,
      line2: row.address_line2,
      city: row.address_city,
      state: row.address_state,
      postalCode: row.address_postal_code,
      country: row.address_country,
    },
    emergencyContact: {
      name: row.emergency_name,
      relationship: row.emergency_relationship,
      phone: row.emergency_phone,
    },
    insurance: {
      provider: row.insurance_provider,
      policyNumber: row.insurance_policy_number,
      groupNumber: row.insurance_group_number,
    },
    status: row.status as PatientStatus,
    createdAt: fromDbTime(row.created_at),
    updatedAt: fromDbTime(row.updated_at),
  };
}
