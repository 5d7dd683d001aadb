import { randomUUID } from 'node:crypto';
import { Database } from '@faultline/platform';
import {
  type AttemptOutcome,
  classifyResponse,
  type DeliveryTarget,
  type DeliveryTargetKind,
  DeliveryTargetKindRegistry,
  type OutgoingDelivery,
  signBody,
  type TargetAttemptOutcome,
  WebhookTargets,
} from '@faultline/webhooks';
import { startTestApp, type TestApp } from '../support/test-app';
import { answer, WebhookReceiver } from '../support/webhook-receiver';

/**
 * A kind the engine has never heard of (a chat channel) registers its policy and the engine sends
 * its deliveries as the kind says: its targets, headers, time-out, retries and final answers.
 */
describe('delivery target kinds', () => {
  let api: TestApp;
  const receiver = new WebhookReceiver();
  const channels = new Map<string, DeliveryTarget>();
  const settled: TargetAttemptOutcome[] = [];

  const chat: DeliveryTargetKind = {
    name: 'chat_channel',
    timeoutMs: 300,
    retryScheduleSeconds: [0.2],
    removedReason: 'the channel was removed',
    resolve: async (ids) => new Map(ids.filter((id) => channels.has(id)).map((id) => [id, channels.get(id) as DeliveryTarget])),
    headers: (delivery: OutgoingDelivery, target: DeliveryTarget) => ({
      'content-type': 'application/json',
      'x-chat-event': delivery.eventType,
      'x-chat-signature': signBody(target.secret, delivery.body),
    }),
    classify: (statusCode: number, retryAfter: string | undefined, now: Date): AttemptOutcome =>
      statusCode === 422 ? { kind: 'rejected', reason: 'the channel refused it' } : classifyResponse(statusCode, retryAfter, now),
    settled: async (outcomes) => {
      settled.push(...outcomes);
    },
  };

  beforeAll(async () => {
    await receiver.start();
    // The engine's own time-out is far longer than the kind's.
    api = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '5000', WEBHOOK_RETRY_SCHEDULE: '0.2,0.2,0.2' });
    api.app.get(DeliveryTargetKindRegistry).register(chat);
  });

  afterAll(async () => {
    await api?.close();
    await receiver.close();
  });

  async function send(channel: string, body: unknown): Promise<string> {
    const guid = randomUUID();
    await api.app
      .get(Database)
      .transaction((tx) =>
        api.app
          .get(WebhookTargets)
          .enqueue(tx, [{ guid, targetKind: chat.name, targetId: channel, cause: guid, eventType: 'message.posted', body: JSON.stringify(body) }]),
      );
    return guid;
  }

  async function finished(guid: string): Promise<{ status: string; attempts: number; last_error: string | null }> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const [row] = await api.app
        .get(Database)
        .query<{ status: string; attempts: number; last_error: string | null }>(
          `SELECT status, attempts, last_error FROM webhooks.webhook_deliveries WHERE guid = $1`,
          [guid],
        );
      if (row && row.status !== 'pending') return row;
      if (Date.now() > deadline) throw new Error(`delivery ${guid} still pending`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it("sends to the target the kind resolves, with the kind's headers, and tells the kind how it went", async () => {
    channels.set('ops', { id: 'ops', url: `${receiver.url}/ops`, secret: 'a'.repeat(64), active: true });
    const guid = await send('ops', { text: 'deploy done' });
    const [request] = await receiver.waitFor('/ops', 1);
    expect(request.rawBody).toBe('{"text":"deploy done"}');
    expect(request.headers['x-chat-event']).toBe('message.posted');
    expect(request.headers['x-chat-signature']).toBe(signBody('a'.repeat(64), request.rawBody));
    expect(request.headers['x-servicehook-signature']).toBeUndefined();
    expect(await finished(guid)).toEqual({ status: 'delivered', attempts: 1, last_error: null });
    // The kind hears of the attempt once it is recorded.
    for (let waited = 0; !settled.some((outcome) => outcome.targetId === 'ops') && waited < 2000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toContainEqual({ targetId: 'ops', ok: true });
  });

  it("takes the kind's word on what is final and on its time-out and retry schedule", async () => {
    channels.set('strict', { id: 'strict', url: `${receiver.url}/strict`, secret: 'b'.repeat(64), active: true });
    receiver.on('/strict', answer(422));
    expect(await finished(await send('strict', { text: 'refused' }))).toEqual({ status: 'failed', attempts: 1, last_error: 'the channel refused it' });

    channels.set('slow', { id: 'slow', url: `${receiver.url}/slow`, secret: 'c'.repeat(64), active: true });
    receiver.on('/slow', (_attempt, _request, response) => setTimeout(() => response.writeHead(200).end('ok'), 1500));
    // One retry on the kind's schedule (not the engine's three), each cut at the kind's 300 ms.
    expect(await finished(await send('slow', { text: 'slow' }))).toEqual({
      status: 'failed',
      attempts: 2,
      last_error: 'timed out after 300 ms; gave up after 2 attempts',
    });
  });

  it("fails a delivery whose target the kind no longer knows, with the kind's reason, and sends nothing", async () => {
    const guid = await send('archived', { text: 'nobody' });
    expect(await finished(guid)).toEqual({ status: 'failed', attempts: 1, last_error: 'the channel was removed' });
    expect(receiver.to('/archived')).toEqual([]);
  });
});
