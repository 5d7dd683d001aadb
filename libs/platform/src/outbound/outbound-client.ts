export interface OutboundResponse {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** The body was longer than the client reads; `body` is its beginning. */
  readonly truncated: boolean;
}

/** An HTTP client for tenant-given URLs; see OutboundHttpClients. */
export interface OutboundClient {
  get(url: string, headers: Record<string, string>): Promise<OutboundResponse>;
  post(url: string, headers: Record<string, string>, body: string): Promise<OutboundResponse>;
  /** A readable reason for a failed request, and whether it failed because the address is refused. */
  describeError(error: unknown): { message: string; refused: boolean };
  close(): Promise<void>;
}

/**
 * Opens HTTP clients that call tenant-given URLs as the delivery engine does: under the configured
 * address policy (checked on the resolved address), never following a redirect, one deadline over
 * the whole request, at most `responseBodyLimit` bytes of the answer read.
 */
export abstract class OutboundHttpClients {
  /** A client with its own keep-alive connections; close it when done. */
  abstract open(timeoutMs: number, responseBodyLimit: number): OutboundClient;
}
