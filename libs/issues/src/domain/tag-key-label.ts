/** Sentry's labels of tag keys: its own names for some, the key in title case for the rest. */
const TAG_LABELS: Record<string, string> = { user: 'User', release: 'Release', dist: 'Distribution', os: 'OS', url: 'URL', server_name: 'Server' };

export function tagKeyLabel(key: string): string {
  // Python's str.title(): every run of letters capitalised.
  return (
    TAG_LABELS[key] ??
    key
      .replace(/_/g, ' ')
      .toLowerCase()
      .replace(/(^|[^a-z])([a-z])/g, (_, before: string, letter: string) => before + letter.toUpperCase())
  );
}
