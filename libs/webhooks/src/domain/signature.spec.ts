import { createHmac } from 'node:crypto';
import { signBody, standardWebhookSignature, standardWebhooksSecret, verifySignature } from './signature';

const secret = 'a'.repeat(64);

describe('hook signatures', () => {
  it('signs the exact bytes with HMAC-SHA256 as hex', () => {
    const body = JSON.stringify({ id: 'x', message: 'héllo' });
    expect(signBody(secret, body)).toBe(createHmac('sha256', secret).update(body).digest('hex'));
  });

  it('verifies the raw body, and refuses a changed body, a wrong secret or a malformed header', () => {
    const body = '{"a":1}';
    const header = signBody(secret, body);
    expect(verifySignature(body, header, secret)).toBe(true);
    expect(verifySignature(Buffer.from(body), header.toUpperCase(), secret)).toBe(true);
    expect(verifySignature('{"a":2}', header, secret)).toBe(false);
    expect(verifySignature(body, header, 'b'.repeat(64))).toBe(false);
    expect(verifySignature(body, header.slice(1), secret)).toBe(false);
    expect(verifySignature(body, undefined, secret)).toBe(false);
  });

  it('signs Standard Webhooks messages over id.timestamp.body with the secret bytes', () => {
    const key = Buffer.from(standardWebhooksSecret(secret).slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key).update('msg_1.1700000000.{}').digest('base64');
    expect(standardWebhookSignature(secret, 'msg_1', 1700000000, '{}')).toBe(`v1,${expected}`);
  });
});
