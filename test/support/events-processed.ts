import { EventProcessing } from '@faultline/ingest';
import { Database } from '@faultline/platform';
import type { TestApp } from './test-app';

/** Waits until every accepted event and outcome has been processed by the app's event processor. */
export async function eventsProcessed(api: TestApp): Promise<void> {
  const database = api.app.get(Database);
  for (let attempt = 0; attempt < 200; attempt++) {
    await api.app.get(EventProcessing).drain();
    const [{ pending }] = await database.query<{ pending: number }>(
      `SELECT (SELECT count(*) FROM ingest.ingest_queue) + (SELECT count(*) FROM ingest.ingest_outcomes) AS pending`,
    );
    if (Number(pending) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('events were not processed in time');
}
