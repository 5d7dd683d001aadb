/** A fact that happened, as stored: a stable type string, a schema version and a JSON-safe payload. */
export interface DomainEvent<TType extends string = string, TData = Record<string, unknown>> {
  readonly type: TType;
  readonly schemaVersion: number;
  readonly data: TData;
}

export interface EventMetadata {
  readonly actorType?: 'user' | 'application' | 'system';
  readonly actorId?: string;
  readonly requestId?: string;
  readonly [key: string]: unknown;
}

/** A domain event as read back from the event store. */
export interface RecordedEvent<TType extends string = string, TData = Record<string, unknown>> extends DomainEvent<TType, TData> {
  readonly globalPosition: string;
  readonly streamId: string;
  readonly streamType: string;
  readonly version: number;
  readonly eventId: string;
  readonly metadata: EventMetadata;
  readonly recordedAt: string;
}

export function domainEvent<TType extends string, TData>(type: TType, data: TData, schemaVersion = 1): DomainEvent<TType, TData> {
  return Object.freeze({ type, schemaVersion, data });
}
