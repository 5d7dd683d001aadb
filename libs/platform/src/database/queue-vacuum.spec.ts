import type { Sql } from './database';
import { QueueVacuum } from './queue-vacuum';

describe('QueueVacuum', () => {
  function fakeSql() {
    const statements: string[] = [];
    const finish: Array<(error?: Error) => void> = [];
    const sql = {
      query: async () => [],
      execute: (text: string) => {
        statements.push(text);
        return new Promise<number>((resolve, reject) => finish.push((error) => (error ? reject(error) : resolve(0))));
      },
    } as Sql;
    return { sql, statements, finish };
  }

  it('vacuums the tables once enough rows were taken, one pass at a time', async () => {
    const { sql, statements, finish } = fakeSql();
    const vacuum = new QueueVacuum(sql, ['queue_a', 'queue_b'], 100, () => undefined);
    vacuum.count(60);
    expect(statements).toEqual([]);
    vacuum.count(40);
    expect(statements).toEqual(['VACUUM (SKIP_LOCKED) queue_a, queue_b']);
    vacuum.count(500);
    expect(statements).toHaveLength(1);
    finish[0]();
    await vacuum.settled();
    vacuum.count(100);
    expect(statements).toHaveLength(2);
  });

  it('reports a failed pass and tries again after the next rows', async () => {
    const { sql, statements, finish } = fakeSql();
    const errors: unknown[] = [];
    const vacuum = new QueueVacuum(sql, ['queue_a'], 10, (error) => errors.push(error));
    vacuum.count(10);
    finish[0](new Error('permission denied'));
    await vacuum.settled();
    expect(errors).toEqual([new Error('permission denied')]);
    vacuum.count(10);
    expect(statements).toHaveLength(2);
  });
});
