import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import x12 from "node-x12";

const FIXTURES = new URL("../fixtures/x12/", import.meta.url);

/** What the simulator read from one 270 it received. */
export interface Received270 {
  authorization: string | undefined;
  contentType: string | undefined;
  raw: string;
  trace: string;
  memberId: string;
  subscriber: { last: string; first: string };
  dependent: { last: string; first: string } | null;
  payerId: string;
  providerNpi: string;
  serviceTypes: string[];
  serviceDate: string;
}

/**
 * A clearinghouse on 127.0.0.1 over real HTTPS (a self-signed certificate made with openssl for this run). It parses
 * each 270 it receives with node-x12 and answers from the 271 fixtures by member id: ACTIVE-PT, INACTIVE,
 * DEDUCTIBLE-MET, BAD-ID (AAA 72), PAYER-DOWN (AAA 42), MALFORMED (not X12), SLOW (answers after `slowMs`),
 * HTTP-500.
 */
export class ClearinghouseSimulator {
  readonly received: Received270[] = [];
  slowMs = 1_500;
  private server: Server | undefined;
  private dir = "";
  ca = "";
  caFile = "";
  url = "";

  async start(): Promise<void> {
    this.dir = mkdtempSync(join(tmpdir(), "clearinghouse-"));
    const key = join(this.dir, "key.pem");
    const cert = join(this.dir, "cert.pem");
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1"].concat([
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
      ]),
      { stdio: "ignore" },
    );
    this.ca = readFileSync(cert, "utf8");
    this.caFile = cert;
    this.server = createServer({ key: readFileSync(key), cert: this.ca }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        let read: Received270;
        try {
          read = this.read270(raw, req.headers.authorization, req.headers["content-type"]);
        } catch (error) {
          res.writeHead(400, { "content-type": "text/plain" }).end(`not a 270: ${(error as Error).message}`);
          return;
        }
        this.received.push(read);
        const answer = (name: string) =>
          res.writeHead(200, { "content-type": "application/edi-x12" }).end(this.fixture(name, read));
        switch (read.memberId) {
          case "ACTIVE-PT":
            return answer("active-pt.edi");
          case "INACTIVE":
            return answer("inactive.edi");
          case "DEDUCTIBLE-MET":
            return answer("deductible-met.edi");
          case "BAD-ID":
            return answer("rejected-member-id.edi");
          case "PAYER-DOWN":
            return answer("payer-unavailable.edi");
          case "PAYER-BUSY":
            return answer("payer-busy.edi");
          case "VISITS-HSD":
            return answer("visits-hsd.edi");
          case "BENEFIT-AAA":
            return answer("aaa-2110c.edi");
          case "OPENPRACTICE-TEST": // the connection test's made-up member: "subscriber not found"
            return answer("aaa-2100c.edi");
          case "MALFORMED":
            return answer("malformed.txt");
          case "SLOW":
            setTimeout(() => answer("active-pt.edi"), this.slowMs).unref();
            return;
          default:
            res.writeHead(500, { "content-type": "text/plain" }).end("clearinghouse error");
        }
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `https://127.0.0.1:${(this.server.address() as AddressInfo).port}/realtime`;
  }

  private read270(raw: string, authorization: string | undefined, contentType: string | undefined): Received270 {
    const interchange = new x12.X12Parser(true).parse(raw);
    const tx = (Array.isArray(interchange) ? interchange[0] : interchange)!.functionalGroups[0]!.transactions[0]!;
    if (tx.header.valueOf(1) !== "270") throw new Error("transaction set is not 270");
    const segs = tx.segments.map((s) => ({ tag: s.tag, v: s.elements.map((e) => e.value) }));
    const nm1 = (qualifier: string) => segs.find((s) => s.tag === "NM1" && s.v[0] === qualifier)?.v;
    const il = nm1("IL");
    const dep = nm1("03");
    return {
      authorization,
      contentType,
      raw,
      trace: segs.find((s) => s.tag === "TRN")?.v[1] ?? "",
      memberId: il?.[8] ?? "",
      subscriber: { last: il?.[2] ?? "", first: il?.[3] ?? "" },
      dependent: dep ? { last: dep[2] ?? "", first: dep[3] ?? "" } : null,
      payerId: nm1("PR")?.[8] ?? "",
      providerNpi: nm1("1P")?.[8] ?? "",
      serviceTypes: segs.filter((s) => s.tag === "EQ").map((s) => s.v[0] ?? ""),
      serviceDate: segs.find((s) => s.tag === "DTP" && s.v[0] === "291")?.v[2] ?? "",
    };
  }

  private fixture(name: string, read: Received270): string {
    const today = new Date().toISOString().slice(0, 10).replaceAll("-", "");
    return readFileSync(new URL(name, FIXTURES), "utf8")
      .replaceAll("{TRACE}", read.trace)
      .replaceAll("{CCYYMMDD}", today)
      .replaceAll("{YYMMDD}", today.slice(2))
      .replaceAll("{MEMBER}", read.memberId)
      .replaceAll("{LAST}", read.subscriber.last)
      .replaceAll("{FIRST}", read.subscriber.first)
      .replace(/~\n/g, "~");
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
