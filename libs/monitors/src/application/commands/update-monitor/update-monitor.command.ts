import type { MonitorInput } from '../../../domain';

/** Changes the given fields of a monitor (Sentry's PUT …/monitors/{slug}/); `isMuted` mutes every environment. */
export class UpdateMonitorCommand {
  constructor(
    readonly organizationId: string,
    readonly monitorSlugOrId: string,
    readonly projectIdOrSlug: unknown,
    readonly input: MonitorInput,
  ) {}
}
