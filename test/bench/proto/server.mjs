// PROTOTYPE server: our stack with the prototype options in PROTO (comma list,
// see compose.mjs) on node:http through our h3 host, as the runtime serves it.
// Env: DB_FILE, PORT, HOST, PROTO, OPENPRACTICE_JWT_SECRET.
import { createH3NodeServer } from "@openpractice/h3";
import { composeOurs } from "./compose.mjs";

const options = (process.env.PROTO ?? "").split(",").filter(Boolean);
const ours = await composeOurs(process.env.DB_FILE, process.env.OPENPRACTICE_JWT_SECRET, options);
const server = createH3NodeServer(ours.handler);
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? "127.0.0.1");
const stop = () => server.close(() => ours.close().then(() => process.exit(0)));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
