import { createHmac, timingSafeEqual } from 'node:crypto';

/** HMAC-SHA256 of the exact body bytes, as lowercase hex: the Sentry-style hook signature. */
export function signBody(secret: string, body: string | Buffer): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * Checks a hook signature header against the raw request body, in constant time. Receivers call it
 * with the bytes they received, before parsing them.
 */
export function verifySignature(rawBody: string | Buffer, header: string | string[] | undefined, secret: string): boolean {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value || !/^[0-9a-fA-F]{64}$/.test(value.trim())) return false;
  const expected = Buffer.from(signBody(secret, rawBody), 'hex');
  return timingSafeEqual(expected, Buffer.from(value.trim(), 'hex'));
}

/**
 * The Standard Webhooks signature (`webhook-signature`): `v1,` and the base64 HMAC-SHA256 of
 * `id.timestamp.body`, keyed with the secret's bytes (our secrets are hex, so a Standard Webhooks
 * library takes them as `whsec_` + base64 of those bytes; see `standardWebhooksSecret`).
 */
export function standardWebhookSignature(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const digest = createHmac('sha256', Buffer.from(secret, 'hex')).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${digest}`;
}

/** The hook secret in the form Standard Webhooks libraries expect. */
export function standardWebhooksSecret(secret: string): string {
  return `whsec_${Buffer.from(secret, 'hex').toString('base64')}`;
}
