export * from "./sqlite-storage.js";
export * from "./sqlite-profile.js";
export * from "./sqlite-engine.js";
