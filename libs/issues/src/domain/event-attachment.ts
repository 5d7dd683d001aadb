/**
 * The rules of event attachments: what an attachment is called and typed as when its sender left
 * that out, the budget of one attachment, how its bytes are cut for storage, and the name a
 * download is offered under. Sentry's (Relay's) defaults where it has them.
 */

const MIB = 1024 * 1024;

export const EVENT_ATTACHMENT_LIMITS = {
  /**
   * Largest attachment kept (`ATTACHMENT_MAX_BYTES` may lower it). Sentry allows 100 MiB, but an
   * envelope item here is at most 20 MiB (a larger one refuses the whole envelope with 413), so
   * this is the most an attachment can be.
   */
  maxBytes: 20 * MIB,
  /** Bytes per stored chunk: a download reads one chunk at a time. */
  chunkBytes: MIB,
  maxNameLength: 256,
  maxContentTypeLength: 128,
  maxTypeLength: 64,
} as const;

/** Relay's attachment types; an unknown type is kept as sent (newer SDKs add types). */
export const KNOWN_ATTACHMENT_TYPES = [
  'event.attachment',
  'event.minidump',
  'event.applecrashreport',
  'event.view_hierarchy',
  'unreal.context',
  'unreal.logs',
] as const;

export const DEFAULT_ATTACHMENT_TYPE = 'event.attachment';
export const MINIDUMP_ATTACHMENT_TYPE = 'event.minidump';
export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';
/** What an attachment without a file name is called (Relay's placeholder for a missing filename). */
export const UNNAMED_ATTACHMENT = 'Unnamed Attachment';

/** Why an attachment was not kept; each is an outcome reason. */
export type AttachmentRefusal = 'too_large' | 'storage_quota' | 'missing_event_id' | 'key_quota';

export interface AttachmentDescription {
  readonly type: string;
  readonly name: string;
  readonly contentType: string;
}

/** The stored description of an attachment from what its sender wrote (bounded, defaults filled in). */
export function describeAttachment(sent: { type?: string; name?: string; contentType?: string }): AttachmentDescription {
  return {
    type: bounded(sent.type, EVENT_ATTACHMENT_LIMITS.maxTypeLength) ?? DEFAULT_ATTACHMENT_TYPE,
    name: bounded(sent.name, EVENT_ATTACHMENT_LIMITS.maxNameLength) ?? UNNAMED_ATTACHMENT,
    contentType: mediaType(bounded(sent.contentType, EVENT_ATTACHMENT_LIMITS.maxContentTypeLength)) ?? DEFAULT_CONTENT_TYPE,
  };
}

/** Whether an attachment of `size` bytes may be kept under `maxBytes` (the configured limit). */
export function sizeRefusal(size: number, maxBytes: number): AttachmentRefusal | null {
  return size > maxBytes ? 'too_large' : null;
}

/** The [start, end) byte ranges of the stored chunks of an attachment of `size` bytes (none when empty). */
export function chunkRanges(size: number, chunkBytes: number = EVENT_ATTACHMENT_LIMITS.chunkBytes): Array<readonly [number, number]> {
  const ranges: Array<readonly [number, number]> = [];
  for (let start = 0; start < size; start += chunkBytes) ranges.push([start, Math.min(size, start + chunkBytes)]);
  return ranges;
}

/**
 * `Content-Disposition` of a download: Sentry's name (the last path segment, runs of white space
 * made one space) in `filename` with anything but printable ASCII replaced, and in full as RFC 5987
 * `filename*`, so browsers save the exact name and no header can be injected.
 */
export function downloadDisposition(name: string): string {
  const base = name.split(/\s+/).filter(Boolean).join(' ').split('/').pop() || UNNAMED_ATTACHMENT;
  const ascii = base.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(base).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

function bounded(value: string | undefined, maxLength: number): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? [...trimmed].slice(0, maxLength).join('') : undefined;
}

/** A media type it is safe to answer a download with (`type/subtype`, parameters of printable ASCII); anything else is not kept. */
function mediaType(value: string | undefined): string | undefined {
  return value !== undefined && /^[\w.+-]+\/[\w.+-]+(\s*;[\x20-\x7e]*)?$/.test(value) ? value : undefined;
}
