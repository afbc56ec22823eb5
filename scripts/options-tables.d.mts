/** The rows of an interface (`name` in `file`, a path from the repository root): each property and its JSDoc. */
export declare function optionsOf(
  file: string,
  name: string,
): { option: string; required: boolean; type: string; doc: string }[];
/** The Markdown table of an interface's options. */
export declare function optionsTable(file: string, name: string): string;
/** Every generated table of docs/, as written and as the types say it. */
export declare function optionsTablesOfDocs(): { page: string; name: string; written: string; generated: string }[];
