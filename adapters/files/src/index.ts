export { FileSystemDocumentStore, type FileSystemDocumentStoreOptions } from "./file-system-document-store.js";
