/** host:port of a server engine's database URL, for operators' messages (never the user or password). */
export function serverAddressOf(url: string, defaultPort: number): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || "localhost"}:${parsed.port || defaultPort}`;
  } catch {
    return "the address in DATABASE_URL";
  }
}
