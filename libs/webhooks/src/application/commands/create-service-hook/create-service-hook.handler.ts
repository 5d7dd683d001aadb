import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError, newHexId, randomHex } from '@faultline/kernel';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { hookUrlError, normaliseHookEvents, SERVICE_HOOK_STREAM_TYPE, SERVICE_HOOKS_FEATURE, serviceHookCreated, serviceHookStream } from '../../../domain';
import { type ServiceHookRow, ServiceHooksRepository } from '../../../infrastructure/service-hooks.repository';
import { CreateServiceHookCommand } from './create-service-hook.command';

@CommandHandler(CreateServiceHookCommand)
export class CreateServiceHookHandler implements ICommandHandler<CreateServiceHookCommand, ServiceHookRow> {
  constructor(
    private readonly database: Database,
    private readonly hooks: ServiceHooksRepository,
    private readonly recorder: EventRecorder,
  ) {}

  async execute({ project, url, events, actorId }: CreateServiceHookCommand): Promise<ServiceHookRow> {
    if (!project.features.includes(SERVICE_HOOKS_FEATURE)) throw DomainError.forbidden('You do not have that feature enabled');
    const urlError = hookUrlError(url);
    if (urlError) throw DomainError.invalid(urlError, { field: 'url' });
    const checked = normaliseHookEvents(events);
    if ('error' in checked) throw DomainError.invalid(checked.error, { field: 'events' });
    return this.database.transaction(async (tx) => {
      const hook = await this.hooks.insert(tx, { id: newHexId(), projectId: project.id, url, secret: randomHex(32), events: checked.events });
      await this.recorder.record(tx, serviceHookStream(hook.id), SERVICE_HOOK_STREAM_TYPE, [
        serviceHookCreated({ hookId: hook.id, projectId: project.id, url, events: checked.events, actorId }),
      ]);
      return hook;
    });
  }
}
