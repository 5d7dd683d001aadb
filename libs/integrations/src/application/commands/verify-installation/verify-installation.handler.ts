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
        const installation = await this.installations.load(tx, installationUuid);
        if (!installation) throw DomainError.notFound();
        installation.verify(this.clock.now().toISOString());
        await this.installations.save(tx, installation, { actorType: 'application', actorId: installationUuid });
      },
      { retries: 1 },
    );
  }
}
