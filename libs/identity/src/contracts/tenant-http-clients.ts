/**
 * HTTP clients for tenant-given URLs under the service's outbound address policy (no private
 * addresses unless configured, no redirects, a deadline, a size cap). Webhooks owns that policy
 * and binds this port; identity finds it at run time, as webhooks depends on identity.
 */
export abstract class TenantHttpClients {
  abstract open(
    timeoutMs: number,
    responseBodyLimit: number,
  ): {
    get(url: string, headers: Record<string, string>): Promise<{ statusCode: number; body: string; truncated: boolean }>;
    describeError(error: unknown): { message: string };
    close(): Promise<void>;
  };
}
