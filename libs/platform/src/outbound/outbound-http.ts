import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Agent, buildConnector, request } from 'undici';
import { type OutboundClient, OutboundHttpClients, type OutboundResponse } from './outbound-client';
import { type AddressPolicy, isAllowedAddress, refusalReason } from './address-policy';

/** Response bytes kept for the delivery log; the rest is never read. */
export const RESPONSE_BODY_LIMIT = 4096;

export class RefusedAddressError extends Error {
  readonly code = 'EWEBHOOK_ADDRESS_REFUSED';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The HTTP client of the delivery engine: keep-alive connections, never a redirect, one deadline
 * over connect, headers and body, and at most RESPONSE_BODY_LIMIT bytes read. Addresses are
 * checked as resolved, and the connection goes to exactly the addresses checked, so a DNS answer
 * that changes between check and connect (rebinding) cannot reach a refused address.
 */
export class OutboundHttp implements OutboundClient {
  private readonly agent: Agent;

  constructor(
    private readonly policy: AddressPolicy,
    private readonly timeoutMs: number,
    /** Response bytes read; the delivery log needs only the beginning, callers that parse answers more. */
    private readonly responseBodyLimit = RESPONSE_BODY_LIMIT,
  ) {
    const guardedLookup = (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
      dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
        if (error) return callback(error, []);
        const allowed = addresses.filter((entry) => isAllowedAddress(entry.address, this.policy));
        if (allowed.length === 0) return callback(new RefusedAddressError(`${hostname}: ${refusalReason(addresses[0]?.address ?? hostname)}`), []);
        if (options.all) callback(null, allowed);
        else callback(null, allowed[0].address, allowed[0].family);
      });
    };
    const connect = buildConnector({ timeout: timeoutMs, lookup: guardedLookup } as buildConnector.BuildOptions);
    this.agent = new Agent({
      connect: (options, callback) => {
        const host = options.hostname.replace(/^\[|\]$/g, '');
        // An IP literal never goes through lookup.
        if (isIP(host) && !isAllowedAddress(host, this.policy)) return callback(new RefusedAddressError(refusalReason(host)), null);
        return connect(options, callback);
      },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      keepAliveTimeout: 4_000,
      connections: null,
    });
  }

  async post(url: string, headers: Record<string, string>, body: string): Promise<OutboundResponse> {
    return this.send('POST', url, headers, body);
  }

  async get(url: string, headers: Record<string, string>): Promise<OutboundResponse> {
    return this.send('GET', url, headers, undefined);
  }

  private async send(method: 'GET' | 'POST', url: string, headers: Record<string, string>, body: string | undefined): Promise<OutboundResponse> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    const response = await request(url, { method, headers, body, signal, dispatcher: this.agent });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size > this.responseBodyLimit) break;
    }
    const truncated = size > this.responseBodyLimit;
    if (truncated) response.body.destroy();
    const responseHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) responseHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    return {
      statusCode: response.statusCode,
      headers: responseHeaders,
      body: Buffer.concat(chunks).subarray(0, this.responseBodyLimit).toString('utf8'),
      truncated,
    };
  }

  describeError(error: unknown): { message: string; refused: boolean } {
    return describeError(error, this.timeoutMs);
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

/** OutboundHttp clients under the configured address policy (WEBHOOK_ALLOW_PRIVATE): every tenant-given URL is called through one. */
@Injectable()
export class PolicyOutboundHttpClients extends OutboundHttpClients {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    super();
  }

  open(timeoutMs: number, responseBodyLimit: number): OutboundClient {
    return new OutboundHttp(this.config.webhooks, timeoutMs, responseBodyLimit);
  }
}

/** A readable reason for a failed request, for the delivery log. */
export function describeError(error: unknown, timeoutMs: number): { message: string; refused: boolean } {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof RefusedAddressError) return { message: `refused: ${current.message}`, refused: true };
    current = (current as { cause?: unknown }).cause;
  }
  const name = (error as { name?: string })?.name;
  if (name === 'TimeoutError' || name === 'AbortError' || /timeout/i.test(String((error as { code?: string })?.code))) {
    return { message: `timed out after ${timeoutMs} ms`, refused: false };
  }
  const code = (error as { code?: string })?.code;
  const message = error instanceof Error ? error.message : String(error);
  return { message: code ? `${code}: ${message}` : message, refused: false };
}

/**
 * Whether deliveries to `url` would reach its host under the address policy, said before a hook is
 * saved (delivery checks again on every connection). One lookup, bounded by `timeoutMs`.
 */
export async function destinationRefusal(url: string, policy: AddressPolicy, timeoutMs: number): Promise<string | null> {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return null;
  }
  if (isIP(host)) return isAllowedAddress(host, policy) ? null : refusalReason(host);
  const addresses = await new Promise<LookupAddress[] | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), timeoutMs);
    dnsLookup(host, { all: true }, (error, found) => {
      clearTimeout(timer);
      resolve(error ? [] : found);
    });
  });
  if (addresses === undefined) return null;
  if (addresses.length === 0) return `${host} does not resolve to an address`;
  return addresses.some((entry) => isAllowedAddress(entry.address, policy)) ? null : `${host}: ${refusalReason(addresses[0].address)}`;
}
