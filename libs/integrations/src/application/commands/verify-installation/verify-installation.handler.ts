import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { InstallationsRepository } from '../../../infrastructure/installations.repository';
import { VerifyInstallationCommand } from './verify-installation.command';

@CommandHandler(VerifyInstallationCommand)
export class VerifyInstallationHandler implements ICommandHandler<VerifyInstallationCommand, void> {
  constructor(
    private readonly database: Database,
    private readonly installations: InstallationsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ installationUuid }: VerifyInstallationCommand): Promise<void> {
    await this.database.transaction(
      async (tx) => {
        const at = this.clock.now().toISOString();
        const decided = await this.installations.decide(tx, installationUuid, (installation) => installation.verify(at), {
          metadata: { actorType: 'application', actorId: installationUuid },
        });
        if (!decided) throw DomainError.notFound();
      },
      { retries: 1 },
    );
  }
}
