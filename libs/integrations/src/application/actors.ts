import type { Actors } from '@faultline/identity';
import type { Sql } from '@faultline/platform';
import { SENTRY_ACTOR, type WebhookActor } from '../domain';

/** Who acts, as installation events and app webhooks name them: the user, or with none, Sentry itself. */
export async function actorFor(actors: Actors, sql: Sql, userId: string | undefined | null): Promise<WebhookActor> {
  return userId ? actors.user(sql, userId) : SENTRY_ACTOR;
}
