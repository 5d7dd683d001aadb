import type { AttachmentRefusal } from '../domain/event-attachment';

export type { AttachmentRefusal } from '../domain/event-attachment';

/** A file an SDK sent with an event (an envelope's `attachment` item, a minidump upload's file). */
export interface EventAttachmentInput {
  readonly organizationId: string;
  readonly projectId: string;
  /** The event it belongs to (normalised 32-hex id); the event may be stored before or after it. */
  readonly eventId: string;
  /** As sent: `attachment_type`, `filename` and `content_type` (defaults are filled in). */
  readonly type?: string;
  readonly name?: string;
  readonly contentType?: string;
  readonly data: Buffer;
  /** ISO 8601 */
  readonly receivedAt: string;
}

/** Per input, in order: kept (or already kept: a retry), or not kept and why. */
export type EventAttachmentIntakeResult = { readonly kept: true } | { readonly kept: false; readonly reason: AttachmentRefusal };

/**
 * Keeps attachments durably (answered only once they are committed), each charged to its
 * organization's storage quota in the same transaction. One that is too large or over the quota
 * is not kept, and nothing else changes because of it.
 */
export abstract class EventAttachmentIntake {
  abstract keep(attachments: readonly EventAttachmentInput[]): Promise<readonly EventAttachmentIntakeResult[]>;
}
