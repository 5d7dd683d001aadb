import { createHash } from 'node:crypto';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';

/**
 * Work whose cost grows with uploaded bytes, kept from freezing other tenants' requests: inflating
 * runs on libuv's pool; hashing runs on the loop in slices with a yield between them (measured on
 * 4 × 8 MiB: slices block at most ~8 ms; WebCrypto's pooled digest blocked ~40 ms copying its input).
 */
const SLICE_BYTES = 1024 * 1024;
const gunzipAsync = promisify(gunzip);

/** Inflates gzip, refusing (rejecting) before the output passes `maxBytes`. */
export function gunzipOffLoop(data: Buffer, maxBytes: number): Promise<Buffer> {
  return gunzipAsync(data, { maxOutputLength: maxBytes, chunkSize: SLICE_BYTES });
}

export async function sha1OffLoop(data: Buffer): Promise<string> {
  const hash = createHash('sha1');
  for (let offset = 0; offset < data.length; offset += SLICE_BYTES) {
    hash.update(data.subarray(offset, offset + SLICE_BYTES));
    if (offset + SLICE_BYTES < data.length) await yieldToLoop();
  }
  return hash.digest('hex');
}
