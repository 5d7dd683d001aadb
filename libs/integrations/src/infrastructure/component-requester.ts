import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { DomainError, newUuid } from '@faultline/kernel';
import { APP_CONFIG, type AppConfig } from '@faultline/platform';
import { type OutboundClient, OutboundHttpClients, signBody } from '@faultline/webhooks';
import { componentUrl } from '../domain';

/** Select lists and ticket answers are small; anything larger is not what the app means to send. */
const ANSWER_LIMIT = 256 * 1024;

/**
 * Calls an app's UI-component URIs on behalf of a user (select options, creating or linking a
 * ticket), through the delivery engine's HTTP client: the same address policy, no redirects, the
 * app time-out. Requests are signed like the app's webhooks, with its client secret over the
 * exact body (empty for a GET), in `<Brand>-App-Signature` as Sentry sends it.
 */
@Injectable()
export class ComponentRequester implements OnModuleDestroy {
  private readonly http: OutboundClient;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    clients: OutboundHttpClients,
  ) {
    this.http = clients.open(config.webhooks.appTimeoutMs, ANSWER_LIMIT);
  }

  async get(app: { webhookUrl: string; clientSecret: string }, uri: string, query: Record<string, string | undefined>): Promise<unknown> {
    const url = new URL(componentUrl(app.webhookUrl, uri));
    for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, value);
    return this.call(() => this.http.get(url.toString(), this.headers(app.clientSecret, '')));
  }

  async post(app: { webhookUrl: string; clientSecret: string }, uri: string, payload: unknown): Promise<unknown> {
    const body = JSON.stringify(payload);
    const url = componentUrl(app.webhookUrl, uri);
    return this.call(() => this.http.post(url, this.headers(app.clientSecret, body), body));
  }

  async onModuleDestroy(): Promise<void> {
    await this.http.close();
  }

  private headers(secret: string, body: string): Record<string, string> {
    return {
      'Content-Type': 'application/json',
      'User-Agent': 'Faultline-Integrations/1.0',
      'Request-ID': newUuid(),
      [`${this.config.webhooks.headerBrand}-App-Signature`]: signBody(secret, body),
    };
  }

  /** The app's JSON answer; its failures become a 400 that says what went wrong, as Sentry answers them. */
  private async call(send: () => Promise<{ statusCode: number; body: string; truncated: boolean }>): Promise<unknown> {
    let response: { statusCode: number; body: string; truncated: boolean };
    try {
      response = await send();
    } catch (error) {
      throw DomainError.invalid(`The integration could not be reached: ${this.http.describeError(error).message}`);
    }
    if (response.statusCode < 200 || response.statusCode >= 300) throw DomainError.invalid(`The integration answered ${response.statusCode}.`);
    if (response.truncated) throw DomainError.invalid('The integration answered more than the service reads.');
    try {
      return JSON.parse(response.body) as unknown;
    } catch {
      throw DomainError.invalid('The integration did not answer JSON.');
    }
  }
}
