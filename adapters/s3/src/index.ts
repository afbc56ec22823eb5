export { S3DocumentStore, type S3DocumentStoreOptions } from "./s3-document-store.js";
