import { Injectable } from '@nestjs/common';
import { AggregateStreams, type Decided, EventRecorder, EventStore } from '@faultline/event-store';
import type { Transaction } from '@faultline/platform';
import { MonitorEnvironment, type MonitorEnvironmentEvent, MONITOR_ENVIRONMENT_STREAM_TYPE, monitorEnvironmentStream } from '../domain';

const METADATA = { actorType: 'system' as const, actorId: 'monitors' };

/** The `monitor-environment-<id>` streams, appended through the shared load–decide–append step. */
@Injectable()
export class MonitorEnvironmentsRepository {
  private readonly streams: AggregateStreams<MonitorEnvironment, MonitorEnvironmentEvent>;

  constructor(eventStore: EventStore, recorder: EventRecorder) {
    this.streams = new AggregateStreams(eventStore, recorder, {
      streamType: MONITOR_ENVIRONMENT_STREAM_TYPE,
      rebuild: (history) => new MonitorEnvironment().loadFromHistory(history),
    });
  }

  async create(tx: Transaction, environment: MonitorEnvironment): Promise<void> {
    await this.streams.append(tx, monitorEnvironmentStream(environment.snapshot.id), environment, METADATA);
  }

  async decide<R>(tx: Transaction, environmentId: string, decide: (environment: MonitorEnvironment) => R): Promise<Decided<MonitorEnvironment, R>> {
    const decided = await this.streams.decide(tx, monitorEnvironmentStream(environmentId), decide, { metadata: METADATA });
    if (!decided) throw new Error(`monitor environment ${environmentId} has no stream`);
    return decided;
  }
}
