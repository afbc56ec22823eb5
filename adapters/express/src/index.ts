export * from "./express-host.js";
