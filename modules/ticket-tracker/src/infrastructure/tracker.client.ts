import { Inject, Injectable } from '@nestjs/common';
import { request } from 'undici';
import { type CallOutcome, idempotencyKey, outcomeOf, type TicketRequest } from '../domain/ticket';
import { TICKET_TRACKER_CONFIG, type TicketTrackerConfig } from '../ticket-tracker.config';

/**
 * Opens tickets over HTTP. Every call for an issue carries the same `Idempotency-Key`, so a call
 * repeated after a crash or a lost answer opens nothing new in a tracker that honours the key. The
 * tracker is the operator's own configuration, not user input, hence no address policy here.
 */
@Injectable()
export class TrackerClient {
  constructor(@Inject(TICKET_TRACKER_CONFIG) private readonly config: TicketTrackerConfig) {}

  async open(issueId: string, ticket: TicketRequest): Promise<CallOutcome> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'idempotency-key': idempotencyKey(issueId),
      'user-agent': 'Faultline-TicketTracker/1',
    };
    if (this.config.token) headers.authorization = `Bearer ${this.config.token}`;
    try {
      const response = await request(this.config.url, {
        method: 'POST',
        headers,
        body: JSON.stringify(ticket),
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
      const body = await response.body.text();
      return outcomeOf(response.statusCode, body);
    } catch (error) {
      return { kind: 'retry', error: `tracker unreachable: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
}
