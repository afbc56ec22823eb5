export * from "./mysql-storage.js";
export * from "./mysql-profile.js";
export * from "./mysql-engine.js";
export * from "./patient-search-trigrams.js";
export * from "./patient-search-from-trigrams.js";
export * from "./patient-counts.js";
export { mysqlUrlSettings, type MysqlUrlSettings } from "./pipelined-transactions.js";
