import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, DomainError } from '@faultline/kernel';
import { Database } from '@faultline/platform';
import { ReleasesRepository, type RepositoryRow } from '../../../infrastructure/releases.repository';
import { CreateRepositoryCommand } from './create-repository.command';

@CommandHandler(CreateRepositoryCommand)
export class CreateRepositoryHandler implements ICommandHandler<CreateRepositoryCommand, RepositoryRow> {
  constructor(
    private readonly database: Database,
    private readonly releases: ReleasesRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ organizationId, repository }: CreateRepositoryCommand): Promise<RepositoryRow> {
    const created = await this.releases.addRepository(this.database, organizationId, repository, this.clock.now());
    if (!created) throw DomainError.conflict('A repository with that name already exists');
    return created;
  }
}
