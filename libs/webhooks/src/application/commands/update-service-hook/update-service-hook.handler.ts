import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { hookUrlError, normaliseHookEvents, SERVICE_HOOK_STREAM_TYPE, serviceHookStream, serviceHookUpdated } from '../../../domain';
import { type ServiceHookRow, ServiceHooksRepository } from '../../../infrastructure/service-hooks.repository';
import { UpdateServiceHookCommand } from './update-service-hook.command';

@CommandHandler(UpdateServiceHookCommand)
export class UpdateServiceHookHandler implements ICommandHandler<UpdateServiceHookCommand, ServiceHookRow> {
  constructor(
    private readonly database: Database,
    private readonly hooks: ServiceHooksRepository,
    private readonly recorder: EventRecorder,
  ) {}

  async execute({ projectId, hookId, changes, actorId }: UpdateServiceHookCommand): Promise<ServiceHookRow> {
    if (changes.url !== undefined) {
      const urlError = hookUrlError(changes.url);
      if (urlError) throw DomainError.invalid(urlError, { field: 'url' });
    }
    let events: string[] | undefined;
    if (changes.events !== undefined) {
      const checked = normaliseHookEvents(changes.events);
      if ('error' in checked) throw DomainError.invalid(checked.error, { field: 'events' });
      events = checked.events;
    }
    const status = changes.isActive === undefined ? undefined : changes.isActive ? 'active' : 'disabled';
    return this.database.transaction(async (tx) => {
      const hook = await this.hooks.find(tx, projectId, hookId, { lock: true });
      if (!hook) throw DomainError.notFound();
      const updated = await this.hooks.update(tx, hookId, { url: changes.url, events, status });
      const recorded = Object.fromEntries(Object.entries({ url: changes.url, events, status }).filter(([, value]) => value !== undefined));
      if (Object.keys(recorded).length > 0) {
        await this.recorder.record(tx, serviceHookStream(hookId), SERVICE_HOOK_STREAM_TYPE, [serviceHookUpdated({ hookId, changes: recorded, actorId })]);
      }
      return updated;
    });
  }
}
