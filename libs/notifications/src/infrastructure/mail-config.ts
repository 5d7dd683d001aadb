import { ConfigError } from '@faultline/platform';

export interface MailConfig {
  /** `smtp://user:pass@host:587` or `smtps://...`; undefined: mail is only kept in the delivery log. */
  readonly smtpUrl?: string;
  readonly from: string;
  readonly timeoutMs: number;
  readonly retryScheduleSeconds: readonly number[];
}

/** Retries through an SMTP outage for about a day, as webhooks do. */
const DEFAULT_MAIL_RETRY_SCHEDULE = [10, 60, 300, 1800, 7200, 18000, 36000, 36000];

/** The mail settings (SMTP_URL, MAIL_FROM, MAIL_RETRY_SCHEDULE, MAIL_TIMEOUT_MS) from the service's environment. */
export function mailConfig(env: Readonly<Record<string, string | undefined>>, publicUrl: string): MailConfig {
  const smtpUrl = env.SMTP_URL || undefined;
  if (smtpUrl) {
    let url: URL;
    try {
      url = new URL(smtpUrl);
    } catch {
      throw new ConfigError('SMTP_URL must be a URL like smtp://user:pass@host:587 or smtps://user:pass@host:465');
    }
    if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new ConfigError(`SMTP_URL must start with smtp:// or smtps://, got "${url.protocol}//"`);
  }
  const from = env.MAIL_FROM || `Faultline <faultline@${new URL(publicUrl).hostname || 'localhost'}>`;
  if (!/@/.test(from) || /[\r\n]/.test(from)) throw new ConfigError(`MAIL_FROM must be an address like "Faultline <errors@example.com>", got "${from}"`);
  const rawSchedule = env.MAIL_RETRY_SCHEDULE;
  const schedule =
    rawSchedule === undefined
      ? DEFAULT_MAIL_RETRY_SCHEDULE
      : rawSchedule
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean)
          .map(Number);
  if (schedule.some((seconds) => !Number.isFinite(seconds) || seconds < 0 || seconds > 7 * 86_400)) {
    throw new ConfigError(`MAIL_RETRY_SCHEDULE must be comma-separated seconds (0 to 604800), got "${rawSchedule}"`);
  }
  const timeoutMs = Number(env.MAIL_TIMEOUT_MS || 30_000);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 300_000)
    throw new ConfigError(`MAIL_TIMEOUT_MS must be an integer between 100 and 300000, got "${env.MAIL_TIMEOUT_MS}"`);
  return { smtpUrl, from, timeoutMs, retryScheduleSeconds: schedule };
}
