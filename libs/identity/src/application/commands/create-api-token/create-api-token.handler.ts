import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventRecorder } from '@faultline/event-store';
import { Database } from '@faultline/platform';
import { fromPlaintext, issueToken, tokenScopes } from '../../../domain/api-token';
import { API_TOKEN_STREAM_TYPE, apiTokenCreated, apiTokenStream } from '../../../domain/identity.events';
import { IdentityRepository, type TokenRow } from '../../../infrastructure/identity.repository';
import { CreateApiTokenCommand } from './create-api-token.command';

export interface CreatedApiToken {
  readonly row: TokenRow;
  /** The token itself: returned this once, never stored. */
  readonly plaintext: string;
}

@CommandHandler(CreateApiTokenCommand)
export class CreateApiTokenHandler implements ICommandHandler<CreateApiTokenCommand, CreatedApiToken> {
  constructor(
    private readonly database: Database,
    private readonly repository: IdentityRepository,
    private readonly events: EventRecorder,
  ) {}

  async execute(command: CreateApiTokenCommand): Promise<CreatedApiToken> {
    const scopes = tokenScopes(command.scopes, command.creatorScopes);
    const issued = command.plaintext ? fromPlaintext(command.plaintext) : issueToken(command.kind);
    return this.database.transaction(async (tx) => {
      const row = await this.repository.insertToken(tx, {
        kind: command.kind,
        ...command.owner,
        name: command.name,
        hash: issued.hash,
        lastCharacters: issued.lastCharacters,
        scopes,
      });
      await this.events.record(tx, apiTokenStream(row.id), API_TOKEN_STREAM_TYPE, [
        apiTokenCreated({ tokenId: row.id, kind: command.kind, ...command.owner, scopes }),
      ]);
      return { row, plaintext: issued.plaintext };
    });
  }
}
