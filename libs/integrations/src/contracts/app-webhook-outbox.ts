import type { Transaction } from '@faultline/platform';
import type { AppWebhookResource, WebhookActor } from '../domain';

/** One app webhook to queue, in the transaction of what causes it. */
export interface AppWebhookNotice {
  /** The organization the installation must belong to; another organization's installation is not notified. */
  readonly organizationId: string;
  readonly installationUuid: string;
  readonly resource: AppWebhookResource;
  /** `triggered`, `critical`, ...: the header says the resource, the body `action`. */
  readonly action: string;
  /** Identifies the occurrence (an event-store event id, an alert fire): queued once per installation and action. */
  readonly cause: string;
  readonly data: unknown;
  /** Omitted: Sentry itself. */
  readonly actor?: WebhookActor;
}

/**
 * Queues service-app webhooks through the delivery engine inside the transaction of their cause,
 * signed with each app's client secret.
 */
export abstract class AppWebhookOutbox {
  /**
   * Queues one webhook to one installation, if it is live in `organizationId` and its app
   * subscribes to the resource (installation webhooks always; alerts when the app is alertable).
   * Answers whether it was queued.
   */
  abstract enqueue(tx: Transaction, notice: AppWebhookNotice): Promise<boolean>;
}
