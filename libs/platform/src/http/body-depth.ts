/**
 * How deeply a JSON request body of the API may nest objects and arrays. No API body (SCIM and
 * webhook payloads included) comes near it; validation and class-transformer recurse once per
 * level, so without a bound a few kilobytes of `[` overflow the stack. SDK ingest parses its own
 * bodies and bounds them at normalisation (`libs/ingest`).
 */
export const MAX_BODY_DEPTH = 64;

export const TOO_DEEP_DETAIL = `The request body is nested more than ${MAX_BODY_DEPTH} levels deep.`;

/** Whether a parsed body nests objects or arrays deeper than `limit` (the body itself is level 1). Walked without recursion. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [next, depth] = pending.pop() as [unknown, number];
    if (next === null || typeof next !== 'object' || Buffer.isBuffer(next)) continue;
    if (depth > limit) return true;
    for (const item of Array.isArray(next) ? next : Object.values(next)) pending.push([item, depth + 1]);
  }
  return false;
}
