import type { Sql } from '@faultline/platform';

/** Who did something, as events and webhooks name them: a user, or an application acting on its own. */
export interface Actor {
  readonly type: 'user' | 'application';
  readonly id: string;
  readonly name: string;
}

/** Identity owns users: other contexts name a user as an actor through this, in their own transaction. */
export abstract class Actors {
  /** The user by name, else e-mail address, else id (a user removed since). */
  abstract user(sql: Sql, userId: string): Promise<Actor>;
}
