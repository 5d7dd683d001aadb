import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface ReceivedWebhook {
  readonly path: string;
  /** The path with its query string. */
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly rawBody: string;
  readonly at: number;
}

/** What the receiver does with the n-th request (0-based) to a path. */
export type Behaviour = (attempt: number, request: ReceivedWebhook, response: ServerResponse) => void;

export const answer =
  (status: number, headers: Record<string, string> = {}): Behaviour =>
  (_n, _request, response) => {
    response.writeHead(status, headers).end(status >= 300 ? 'no' : 'ok');
  };

/**
 * A real webhook receiver on loopback, as an integration builder writes one: it verifies the
 * signature over the raw bytes with its own HMAC before anything else and answers 401 on a
 * mismatch, then does what the test told it to for that path.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly secrets = new Map<string, { secret: string; header: string }>();
  private server?: Server;
  private readonly hanging = new Set<ServerResponse>();
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  on(path: string, behaviour: Behaviour, secret?: string): void {
    this.behaviours.set(path, behaviour);
    if (secret) this.secrets.set(path, { secret, header: SERVICE_HOOK_SIGNATURE });
  }

  /** `header`: where the signature comes (service hooks `x-sentry-hook-signature`, service apps `sentry-hook-signature`). */
  setSecret(path: string, secret: string, header = SERVICE_HOOK_SIGNATURE): void {
    this.secrets.set(path, { secret, header });
  }

  to(path: string): ReceivedWebhook[] {
    return this.received.filter((request) => request.path === path);
  }

  async waitFor(path: string, count: number, timeoutMs = 10_000): Promise<ReceivedWebhook[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.to(path).length < count) {
      if (Date.now() > deadline) throw new Error(`${path}: ${this.to(path).length} of ${count} webhooks arrived`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.to(path);
  }

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = (request.url ?? '/').split('?')[0];
        const received = { path, url: request.url ?? '/', headers: request.headers, rawBody: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
        const attempt = this.to(path).length;
        this.received.push(received);
        const secret = this.secrets.get(path);
        if (secret && !hasValidSignature(received, secret.secret, secret.header)) {
          response.writeHead(401).end('bad signature');
          return;
        }
        const behaviour = this.behaviours.get(path) ?? answer(200);
        behaviour(attempt, received, response);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server!.address() as { port: number }).port;
  }

  /** Leaves the response open, as a receiver that hangs does. */
  hang(response: ServerResponse): void {
    this.hanging.add(response);
  }

  async close(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

const SERVICE_HOOK_SIGNATURE = 'x-sentry-hook-signature';

export function hasValidSignature(request: ReceivedWebhook, secret: string, headerName = SERVICE_HOOK_SIGNATURE): boolean {
  const header = request.headers[headerName];
  if (typeof header !== 'string' || !/^[0-9a-f]{64}$/.test(header)) return false;
  const expected = createHmac('sha256', secret).update(request.rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(header, 'hex'));
}
