import { parseAuthHeader, parseDsn, publicKeyFrom } from './sentry-auth';

const KEY = '0123456789abcdef0123456789abcdef';

describe('parseAuthHeader', () => {
  it('reads the header the SDKs send', () => {
    expect(parseAuthHeader(`Sentry sentry_key=${KEY}, sentry_version=7, sentry_client=sentry.javascript.node/8.0.0, sentry_secret=shh`)).toEqual({
      key: KEY,
      version: '7',
      client: 'sentry.javascript.node/8.0.0',
      secret: 'shh',
    });
  });

  it('tolerates free spacing, no commas, no Sentry prefix, quotes and keys without the prefix', () => {
    expect(parseAuthHeader(`  sentry   sentry_key = ${KEY} ,sentry_version=7`)).toEqual({ key: KEY, version: '7' });
    expect(parseAuthHeader(`sentry_key=${KEY},sentry_version=7`)).toEqual({ key: KEY, version: '7' });
    expect(parseAuthHeader(`Sentry sentry_key=${KEY} sentry_version=7`)).toEqual({ key: KEY, version: '7' });
    expect(parseAuthHeader(`SENTRY sentry_key="${KEY}", sentry_client="raven-python/6.0"`)).toEqual({ key: KEY, client: 'raven-python/6.0' });
    expect(parseAuthHeader(`Sentry key=${KEY}, version=7`)).toEqual({ key: KEY, version: '7' });
    expect(parseAuthHeader(`Sentry sentry_timestamp=1700000000.5, sentry_key=${KEY}`)).toEqual({ key: KEY, timestamp: '1700000000.5' });
  });

  it('keeps the first key when one is repeated', () => {
    expect(parseAuthHeader('Sentry sentry_key=first, sentry_key=second')?.key).toBe('first');
  });

  it('ignores unknown fields and empty values', () => {
    expect(parseAuthHeader(`Sentry sentry_key=, foo=bar, sentry_key=${KEY}`)).toEqual({ key: KEY });
  });

  it('returns null when there is nothing to read', () => {
    expect(parseAuthHeader(undefined)).toBeNull();
    expect(parseAuthHeader(null)).toBeNull();
    expect(parseAuthHeader('')).toBeNull();
    expect(parseAuthHeader('Sentry')).toBeNull();
    expect(parseAuthHeader('Bearer abc.def')).toBeNull();
    expect(parseAuthHeader('foo=bar')).toBeNull();
    expect(parseAuthHeader(42 as unknown as string)).toBeNull();
    expect(parseAuthHeader(`Sentry sentry_key=${'a'.repeat(5000)}`)).toBeNull();
  });
});

describe('parseDsn', () => {
  it('reads key and project of a plain DSN', () => {
    expect(parseDsn(`https://${KEY}@o1.ingest.example.com/42`)).toEqual({ publicKey: KEY, projectId: '42' });
  });

  it('accepts a secret, a port, a path prefix and a trailing slash', () => {
    expect(parseDsn(`http://${KEY}:secret@127.0.0.1:9000/42`)).toEqual({ publicKey: KEY, projectId: '42' });
    expect(parseDsn(`https://${KEY}@errors.example.com/faultline/7`)).toEqual({ publicKey: KEY, projectId: '7' });
    expect(parseDsn(`https://${KEY}@errors.example.com/a/b/7/`)).toEqual({ publicKey: KEY, projectId: '7' });
    expect(parseDsn(`  https://${KEY}@example.com/7  `)).toEqual({ publicKey: KEY, projectId: '7' });
  });

  it('rejects what is not a DSN', () => {
    expect(parseDsn(undefined)).toBeNull();
    expect(parseDsn(null)).toBeNull();
    expect(parseDsn('')).toBeNull();
    expect(parseDsn('not a url')).toBeNull();
    expect(parseDsn('https://example.com/42')).toBeNull(); // no key
    expect(parseDsn(`https://${KEY}@example.com/`)).toBeNull(); // no project
    expect(parseDsn(`https://${KEY}@example.com/project-slug`)).toBeNull(); // project ids are numeric
    expect(parseDsn(`ftp://${KEY}@example.com/42`)).toBeNull();
    expect(parseDsn('https://bad%20key@example.com/42')).toBeNull();
    expect(parseDsn('https://%E0%A4%A@example.com/42')).toBeNull(); // malformed percent-encoding
    expect(parseDsn(`https://${KEY}@example.com/${'1'.repeat(3000)}`)).toBeNull();
    expect(parseDsn(7 as unknown as string)).toBeNull();
  });
});

describe('publicKeyFrom', () => {
  it('prefers the X-Sentry-Auth header and reports the client', () => {
    expect(
      publicKeyFrom({
        authHeader: `Sentry sentry_key=${KEY}, sentry_version=7, sentry_client=sentry.javascript.node/8.0.0`,
        query: { sentry_key: 'other' },
        envelopeDsn: 'https://third@example.com/1',
      }),
    ).toEqual({ publicKey: KEY, client: 'sentry.javascript.node/8.0.0', source: 'header' });
  });

  it('falls back to the query parameters', () => {
    expect(publicKeyFrom({ query: { sentry_key: KEY, sentry_version: '7', sentry_client: 'sentry.javascript.browser/8.1.0' } })).toEqual({
      publicKey: KEY,
      client: 'sentry.javascript.browser/8.1.0',
      source: 'query',
    });
    // A header without a key does not hide the query.
    expect(publicKeyFrom({ authHeader: 'Sentry sentry_version=7', query: { sentry_key: KEY } })).toEqual({ publicKey: KEY, source: 'query' });
    // Repeated parameters arrive as arrays.
    expect(publicKeyFrom({ query: { sentry_key: [KEY, 'other'] } })).toEqual({ publicKey: KEY, source: 'query' });
  });

  it('falls back to the envelope DSN and reports its project', () => {
    expect(publicKeyFrom({ envelopeDsn: `https://${KEY}@example.com/prefix/42` })).toEqual({ publicKey: KEY, source: 'dsn', projectId: '42' });
    expect(publicKeyFrom({ authHeader: 'garbage', query: {}, envelopeDsn: `https://${KEY}:s@example.com/42` })?.publicKey).toBe(KEY);
  });

  it('refuses keys with characters no key has', () => {
    expect(publicKeyFrom({ authHeader: 'Sentry sentry_key=a"b' })).toBeNull();
    expect(publicKeyFrom({ query: { sentry_key: 'has space' } })).toBeNull();
    expect(publicKeyFrom({ query: { sentry_key: 'x'.repeat(65) } })).toBeNull();
  });

  it('returns null when no place has a key', () => {
    expect(publicKeyFrom({})).toBeNull();
    expect(publicKeyFrom({ authHeader: null, query: null, envelopeDsn: null })).toBeNull();
    expect(publicKeyFrom({ query: { sentry_key: 42 } })).toBeNull();
    expect(publicKeyFrom({ query: { sentry_key: '' } })).toBeNull();
    expect(publicKeyFrom({ envelopeDsn: 'https://example.com/42' })).toBeNull();
  });

  it('bounds and trims the client name', () => {
    const credentials = publicKeyFrom({ query: { sentry_key: KEY, sentry_client: `  ${'c'.repeat(500)}  ` } });
    expect(credentials?.client).toHaveLength(200);
    expect(publicKeyFrom({ query: { sentry_key: KEY, sentry_client: '   ' } })).toEqual({ publicKey: KEY, source: 'query' });
  });
});
