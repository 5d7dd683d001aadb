import type { Sql } from '@faultline/platform';
import type { InstallationActor } from '../domain';

/** Who acts, as the webhooks name them: a user by name, anything else as Sentry. */
export async function actorFor(sql: Sql, userId: string | undefined | null): Promise<InstallationActor> {
  if (!userId) return { type: 'application', id: 'sentry', name: 'Sentry' };
  const [user] = await sql.query<{ name: string; email: string }>(`SELECT name, email FROM identity.users WHERE id = $1`, [userId]);
  return { type: 'user', id: String(userId), name: user?.name || user?.email || String(userId) };
}
