import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import { type Actor, Actors } from '../contracts/actors';

@Injectable()
export class UserActors extends Actors {
  async user(sql: Sql, userId: string): Promise<Actor> {
    const [user] = await sql.query<{ name: string; email: string }>(`SELECT name, email FROM identity.users WHERE id = $1::bigint`, [userId]);
    return { type: 'user', id: String(userId), name: user?.name || user?.email || String(userId) };
  }
}
