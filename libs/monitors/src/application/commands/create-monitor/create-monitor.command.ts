import type { MonitorInput } from '../../../domain';

/** Creates a monitor in a project of the organization (Sentry's POST …/monitors/). */
export class CreateMonitorCommand {
  constructor(
    readonly organizationId: string,
    readonly projectIdOrSlug: unknown,
    readonly input: MonitorInput,
  ) {}
}
