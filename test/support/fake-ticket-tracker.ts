import type { ServerResponse } from 'node:http';
import { type ReceivedWebhook, WebhookReceiver } from './webhook-receiver';

export interface FakeTicket {
  readonly id: string;
  readonly url: string;
  readonly key: string;
  readonly body: Record<string, unknown>;
}

/**
 * A ticket tracker on loopback, as a careful one behaves: it opens one ticket per Idempotency-Key
 * and answers a repeated key with the ticket it already opened. `loseAnswers` makes it open the
 * ticket and then never answer (a crash or a dropped connection after the work was done).
 */
export class FakeTicketTracker {
  readonly tickets = new Map<string, FakeTicket>();
  loseAnswers = 0;
  private readonly receiver = new WebhookReceiver();
  readonly path = '/tickets';

  get url(): string {
    return `${this.receiver.url}${this.path}`;
  }

  get requests(): ReceivedWebhook[] {
    return this.receiver.to(this.path);
  }

  waitForRequests(count: number, timeoutMs = 20_000): Promise<ReceivedWebhook[]> {
    return this.receiver.waitFor(this.path, count, timeoutMs);
  }

  async start(): Promise<void> {
    this.receiver.on(this.path, (_attempt, request, response) => this.handle(request, response));
    await this.receiver.start();
  }

  close(): Promise<void> {
    return this.receiver.close();
  }

  private handle(request: ReceivedWebhook, response: ServerResponse): void {
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string' || !key) {
      response.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"Idempotency-Key is required"}');
      return;
    }
    let ticket = this.tickets.get(key);
    const created = !ticket;
    if (!ticket) {
      const id = `TCK-${this.tickets.size + 1}`;
      ticket = { id, url: `https://tracker.example.com/browse/${id}`, key, body: JSON.parse(request.rawBody) };
      this.tickets.set(key, ticket);
    }
    if (this.loseAnswers > 0) {
      this.loseAnswers -= 1;
      this.receiver.hang(response);
      return;
    }
    response.writeHead(created ? 201 : 200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: ticket.id, url: ticket.url }));
  }
}
