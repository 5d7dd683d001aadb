export { AggregateStreams, type AggregateType, type DecideOptions, type Decided } from './aggregate-streams';
export { EVENT_STORE_PUBLISHED_VIEWS, type ExpectedVersion, type GlobalPosition, type ReadAllFilter } from './contracts';
export { EventRecorder, type AppendedHandler, type CommittedListener, type RecordOptions } from './event-recorder';
export { EventStore } from './event-store';
export { renumberRestoredTransactionIds } from './restored-transaction-ids';
export { EventStoreModule } from './event-store.module';
export {
  SubscriptionRunner,
  SubscriptionRunnerFactory,
  type SubscriptionHandler,
  type SubscriptionLogger,
  type SubscriptionRunnerFactoryOptions,
  type SubscriptionRunnerOptions,
} from './subscription-runner';
