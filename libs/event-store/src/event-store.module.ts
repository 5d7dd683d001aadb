import { Logger, Module } from '@nestjs/common';
import { Database } from '@faultline/platform';
import { EventRecorder } from './event-recorder';
import { EventStore } from './event-store';
import { SubscriptionRunnerFactory } from './subscription-runner';

/**
 * The event store, the recorder command handlers use, and the factory for durable subscribers.
 * `Database` comes from the global PlatformModule; runners are registered with its WorkerHost by
 * the context that owns them. The classes themselves stay free of Nest: it is all wired here.
 */
@Module({
  providers: [
    { provide: EventStore, inject: [Database], useFactory: (database: Database) => new EventStore(database) },
    { provide: EventRecorder, inject: [EventStore], useFactory: (eventStore: EventStore) => new EventRecorder(eventStore) },
    {
      provide: SubscriptionRunnerFactory,
      inject: [Database, EventStore, EventRecorder],
      useFactory: (database: Database, eventStore: EventStore, recorder: EventRecorder) =>
        new SubscriptionRunnerFactory(database, eventStore, {
          recorder,
          loggerFor: (name) => new Logger(`Subscription ${name}`),
        }),
    },
  ],
  exports: [EventStore, EventRecorder, SubscriptionRunnerFactory],
})
export class EventStoreModule {}
