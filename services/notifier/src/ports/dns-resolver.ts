/** Resolves a host name to every address it has (A and AAAA), as the connection would. */
export interface DnsResolver {
  resolveAll(hostname: string): Promise<string[]>;
}
