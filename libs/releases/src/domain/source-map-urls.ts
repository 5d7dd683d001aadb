/** At most this many candidate URLs per frame file: the full URL, `~/` with the path, then shorter path suffixes. */
const MAX_CANDIDATES = 10;

/**
 * The artifact URLs a frame's file may have been uploaded under, most specific first: the file as
 * the frame names it, then `~/` (any scheme and host) with its path, then `~/` with ever shorter
 * tails of that path, so a bundle uploaded from `dist/` matches wherever the server runs it.
 */
export function candidateUrls(file: string): string[] {
  const candidates = [file];
  const withoutQuery = file.replace(/[?#].*$/, '');
  let path: string;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(withoutQuery);
  if (scheme) path = withoutQuery.slice(scheme[0].length);
  else if (withoutQuery.startsWith('~/')) path = withoutQuery.slice(1);
  else path = withoutQuery.replace(/\\/g, '/');
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  for (let start = 0; start < segments.length && candidates.length < MAX_CANDIDATES; start++) {
    const candidate = `~/${segments.slice(start).join('/')}`;
    if (!candidates.includes(candidate)) candidates.push(candidate);
  }
  return candidates;
}

/** The URL a `sourceMappingURL` (or a manifest's `sourcemap` header) names, resolved against the file's own URL. */
export function resolveSourceMapUrl(fileUrl: string, reference: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(reference) || reference.startsWith('~/')) return reference;
  const tilde = fileUrl.startsWith('~/');
  const base = tilde ? `http://tilde.invalid/${fileUrl.slice(2)}` : fileUrl;
  try {
    const resolved = new URL(reference, base).toString();
    return tilde ? `~/${resolved.slice('http://tilde.invalid/'.length)}` : resolved;
  } catch {
    return reference;
  }
}

/** The `//# sourceMappingURL=` comment at the end of a minified file, if any. */
export function sourceMappingUrlOf(source: string): string | undefined {
  const tail = source.slice(-4096);
  const match = /\/\/[#@]\s*sourceMappingURL=(\S+)\s*$/m.exec(tail);
  return match?.[1];
}
