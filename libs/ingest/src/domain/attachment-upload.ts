import { normalizeEventId } from '@faultline/kernel';
import type { Envelope, EnvelopeItem } from './envelope';
import { EnvelopeError } from './envelope-error';

/** A field of a multipart/form-data upload: text, or a file with its name, type and bytes. */
export type FormEntry = readonly [name: string, value: string | FormFile];
export interface FormFile {
  readonly filename: string;
  readonly contentType: string;
  readonly data: Buffer;
}

/** Form fields read from one upload (files and text); the body limit bounds their bytes. */
export const MAX_FORM_FIELDS = 200;

export function attachmentItem(file: FormFile, attachmentType: string): EnvelopeItem {
  return {
    type: 'attachment',
    header: { type: 'attachment', length: file.data.length, filename: file.filename, content_type: file.contentType, attachment_type: attachmentType },
    payload: file.data,
  };
}

/**
 * Relay's legacy attachment upload (`POST /api/{project}/events/{event_id}/attachments/`, used by
 * older native SDKs): every file of the form becomes an `event.attachment` of the event the path
 * names; text fields are not kept.
 */
export function attachmentUploadEnvelope(entries: readonly FormEntry[], eventId: string | undefined): Envelope {
  const id = normalizeEventId(eventId);
  if (!id) throw new EnvelopeError('the event id in the path must be a 32-character hex id or a uuid');
  if (entries.length > MAX_FORM_FIELDS) throw new EnvelopeError(`the form has more than ${MAX_FORM_FIELDS} fields`, 'too_large');
  const files = entries.flatMap(([, value]) => (typeof value === 'string' ? [] : [attachmentItem(value, 'event.attachment')]));
  if (files.length === 0) throw new EnvelopeError('the form has no file');
  return { header: { event_id: id }, items: files };
}
