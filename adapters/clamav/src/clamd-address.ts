/** Where clamd listens: its TCPSocket/TCPAddr, or its LocalSocket (a Unix socket path). */
export type ClamdAddress = { readonly host: string; readonly port: number } | { readonly socketPath: string };

/** The address as errors name it: `127.0.0.1:3310` or the socket's path. */
export function describeAddress(address: ClamdAddress): string {
  return "socketPath" in address ? address.socketPath : `${address.host}:${address.port}`;
}
