/**
 * Embedding OpenPractice in an existing Express 5 EMR.
 *
 * The EMR keeps its own users, login form and session cookie. OpenPractice is
 * mounted under /emr; a custom Authenticator maps the EMR's session to an
 * OpenPractice principal (organisation, user, scopes), so no JWTs are involved.
 * test/examples/embed-express.test.ts runs it.
 */
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createPractice, DomainError, type PracticeKeys, type Principal } from "@openpractice/core";
import { openPracticeMiddleware } from "@openpractice/express";
import { createHttpHandler, type Authenticator } from "@openpractice/http";
import { createSqliteStorage } from "@openpractice/sqlite";
import { startBackgroundWork } from "@openpractice/worker";
import express from "express";

/** The EMR's own staff table (a real EMR has a database and password hashes). */
const STAFF: Record<
  string,
  { password: string; practiceId: number; staffId: number; name: string; role: "therapist" | "billing" }
> = {
  "maya@clinic.example": {
    password: "correct horse",
    practiceId: 12,
    staffId: 501,
    name: "Maya Okafor",
    role: "therapist",
  },
  "bill@clinic.example": { password: "battery staple", practiceId: 12, staffId: 502, name: "Bill Ng", role: "billing" },
};

/** A signed session cookie: the session id and an HMAC of it, so it cannot be forged. */
function sessionCookies(secret: string) {
  const sign = (id: string) => `${id}.${createHmac("sha256", secret).update(id).digest("base64url")}`;
  const verify = (cookie: string | undefined): string | null => {
    const [id, mac] = (cookie ?? "").split(".");
    if (!id || !mac) return null;
    const expected = Buffer.from(sign(id).split(".")[1] as string);
    const given = Buffer.from(mac);
    return expected.length === given.length && timingSafeEqual(expected, given) ? id : null;
  };
  return { sign, verify };
}

const readCookie = (header: string | null | undefined, name: string) =>
  header
    ?.split(";")
    .map((c) => c.trim().split("="))
    .find(([k]) => k === name)?.[1];

export async function startExpressEmr(options: {
  port: number;
  databaseFile: string;
  sessionSecret: string;
  /** Kept by the EMR, never generated at start: see docs/embedding.md. */
  keys: PracticeKeys;
}): Promise<{ url: string; close(): Promise<void> }> {
  const sessions = new Map<string, string>(); // session id → staff email
  const cookies = sessionCookies(options.sessionSecret);

  /** EMR session → OpenPractice principal. Therapists read and write; billing staff only read. */
  const sessionAuthenticator: Authenticator = {
    async authenticate(request: Request): Promise<Principal> {
      const sessionId = cookies.verify(readCookie(request.headers.get("cookie"), "emr_session"));
      const staff = sessionId ? STAFF[sessions.get(sessionId) ?? ""] : undefined;
      if (!staff) throw new DomainError("UNAUTHORIZED", "Authentication required", { reason: "no EMR session" });
      return {
        organisationId: staff.practiceId,
        userId: staff.staffId,
        name: staff.name,
        scopes: staff.role === "therapist" ? ["read", "write"] : ["read"],
        clinicIds: [],
        roles: [staff.role],
      };
    },
  };

  const storage = await createSqliteStorage({ filename: options.databaseFile });
  const practice = createPractice({ storage, keys: options.keys });
  const openPractice = createHttpHandler({ practice, authenticator: sessionAuthenticator });
  // Webhook deliveries, PDF summaries and pushes run in this process, beside the EMR.
  const background = startBackgroundWork(practice);

  const app = express();
  // OpenPractice first: it reads its own request bodies (and enforces its own limit).
  app.use("/emr", openPracticeMiddleware(openPractice));
  // The EMR's own routes, with its own body parser.
  app.use(express.urlencoded({ extended: false }));
  app.post("/login", (req, res) => {
    const staff = STAFF[req.body.email];
    if (!staff || staff.password !== req.body.password) return void res.status(401).send("wrong email or password");
    const id = randomUUID();
    sessions.set(id, req.body.email);
    res.cookie("emr_session", cookies.sign(id), { httpOnly: true, sameSite: "lax", path: "/" });
    res.redirect(303, "/");
  });
  app.get("/", (_req, res) => void res.send("Example EMR: log in with POST /login, then use /emr/..."));

  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(options.port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await background.stop();
      await storage.close();
    },
  };
}
