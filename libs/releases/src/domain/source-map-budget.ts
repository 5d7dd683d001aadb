/**
 * What decoding a source map's `mappings` costs, known before decoding it. The VLQ text is tiny
 * beside what it decodes to: each `;` becomes a line array and each segment an array of numbers,
 * so 32 MiB of `;` decodes to about 1.4 GB. Counting the separators answers the decoded size in
 * one pass over the string, so a map over its budget is refused without decoding anything.
 */

/** Measured on V8 (Node 20, @jridgewell/trace-mapping 0.3): a line holding segments, an empty line, one segment, one name or source. */
export const DECODED_LINE_BYTES = 280;
export const DECODED_EMPTY_LINE_BYTES = 48;
export const DECODED_SEGMENT_BYTES = 110;
export const DECODED_ENTRY_BYTES = 64;

export interface MappingsShape {
  lines: number;
  /** An upper bound: segments are separated by `,` within a line, and a line holds at most one more. */
  segments: number;
}

export function mappingsShape(mappings: string): MappingsShape {
  let semicolons = 0;
  let commas = 0;
  for (let i = 0; i < mappings.length; i++) {
    const code = mappings.charCodeAt(i);
    if (code === 59) semicolons++;
    else if (code === 44) commas++;
  }
  return { lines: semicolons + 1, segments: commas + semicolons + 1 };
}

/** The most a map of this shape can take once decoded, counting every line as holding segments. */
export function decodedBytesAtMost(shape: MappingsShape, entries: number, textBytes: number): number {
  return shape.lines * DECODED_LINE_BYTES + shape.segments * DECODED_SEGMENT_BYTES + entries * DECODED_ENTRY_BYTES + textBytes;
}

/** What a decoded map takes, from its decoded lines. */
export function decodedBytes(lines: ReadonlyArray<readonly unknown[]>, entries: number, textBytes: number): number {
  let bytes = entries * DECODED_ENTRY_BYTES + textBytes;
  for (const line of lines) bytes += line.length === 0 ? DECODED_EMPTY_LINE_BYTES : DECODED_LINE_BYTES + line.length * DECODED_SEGMENT_BYTES;
  return bytes;
}
