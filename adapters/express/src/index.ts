export * from "./express-host.js";
export { keepRawBody } from "./body-read-before.js";
