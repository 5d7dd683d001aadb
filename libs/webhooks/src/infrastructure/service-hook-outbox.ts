import { Inject, Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@faultline/kernel';
import type { ErrorEventProcessedData } from '@faultline/ingest';
import { IngestEventTypes } from '@faultline/ingest';
import { issueUrl } from '@faultline/issues';
import { APP_CONFIG, type AppConfig, type Transaction } from '@faultline/platform';
import { newHexId } from '@faultline/kernel';
import { type HookNotice, ServiceHookOutbox } from '../contracts/service-hook-outbox';
import type { QueuedDelivery } from '../contracts/webhook-targets';
import { eventHookPayload, type ServiceHookEvent } from '../domain';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveryWorker } from './delivery.worker';
import { SERVICE_HOOK_TARGET, ServiceHooksRepository } from './service-hooks.repository';

/** The service-hook outbox over the hooks and deliveries tables; it also announces every processed error event to `event.created` hooks. */
@Injectable()
export class ServiceHookOutboxService extends ServiceHookOutbox {
  constructor(
    private readonly hooks: ServiceHooksRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly worker: DeliveryWorker,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  async enqueue(tx: Transaction, eventType: ServiceHookEvent, notices: readonly HookNotice[]): Promise<number> {
    if (notices.length === 0) return 0;
    const hooks = await this.hooks.subscribed(tx, [...new Set(notices.map((notice) => notice.projectId))], eventType);
    if (hooks.length === 0) return 0;
    const rows: QueuedDelivery[] = [];
    for (const notice of notices) {
      for (const hook of hooks) {
        if (hook.project_id !== notice.projectId) continue;
        const guid = newHexId();
        const source = { ...notice.source, projectSlug: hook.project_slug, projectName: hook.project_name };
        const link = issueUrl(this.config.publicUrl, hook.organization_slug, notice.source.issueId);
        const body = JSON.stringify(eventHookPayload(guid, source, link, notice.triggeringRules ?? []));
        rows.push({ guid, targetKind: SERVICE_HOOK_TARGET, targetId: hook.id, cause: notice.cause, eventType, body });
      }
    }
    const queued = await this.deliveries.insert(tx, rows);
    if (queued > 0) tx.afterCommit(() => this.worker.wake());
    return queued;
  }

  /** The event-store hook: every processed error event goes to the `event.created` hooks of its project. */
  readonly onAppended = async (tx: Transaction, events: readonly RecordedEvent[]): Promise<void> => {
    const processed = events.filter((event) => event.type === IngestEventTypes.ErrorEventProcessed);
    if (processed.length === 0) return;
    await this.enqueue(
      tx,
      'event.created',
      processed.map((event) => {
        const data = event.data as unknown as ErrorEventProcessedData;
        return {
          cause: event.eventId,
          projectId: String(data.projectId),
          source: {
            issueId: String(data.issueId),
            culprit: data.culprit,
            message: data.message,
            eventId: data.eventId,
            level: data.level,
            platform: data.platform,
            tags: data.tags,
            datetime: data.datetime,
          },
        };
      }),
    );
  };
}
