import type { Plan } from '../../../domain/roles';

export class CreateOrganizationCommand {
  constructor(
    readonly name: string,
    readonly slug: string | undefined,
    readonly ownerUserId: string,
    readonly plan: Plan = 'free',
  ) {}
}
