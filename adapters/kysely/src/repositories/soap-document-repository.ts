import type { SoapDocument, SoapDocumentRepository, SummaryVariant } from "@openpractice/core";
import type { Kysely } from "kysely";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";

/** Rendered summaries as binary columns (blob, bytea, longblob). */
export class KyselySoapDocumentRepository implements SoapDocumentRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async put(d: SoapDocument) {
    // Replace: a re-run of the rendering job overwrites the earlier file.
    await this.db
      .deleteFrom("soap_documents")
      .where("organisation_id", "=", d.organisationId)
      .where("context_id", "=", d.contextId)
      .where("variant", "=", d.variant)
      .execute();
    await this.db
      .insertInto("soap_documents")
      .values({
        organisation_id: d.organisationId,
        context_id: d.contextId,
        variant: d.variant,
        content_type: d.contentType,
        content: Buffer.from(d.content.buffer, d.content.byteOffset, d.content.byteLength),
        created_at: toDbTime(d.createdAt),
      })
      .execute();
  }

  async get(organisationId: number, contextId: string, variant: SummaryVariant): Promise<SoapDocument | undefined> {
    const r = await this.db
      .selectFrom("soap_documents")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("context_id", "=", contextId)
      .where("variant", "=", variant)
      .executeTakeFirst();
    if (!r) return undefined;
    return {
      organisationId: Number(r.organisation_id),
      contextId: r.context_id,
      variant: r.variant as SummaryVariant,
      contentType: r.content_type,
      content: new Uint8Array(r.content),
      createdAt: fromDbTime(r.created_at),
    };
  }
}
