import { keyEndpoints } from './dsn';

describe('keyEndpoints', () => {
  it('builds the DSN in Sentry format from the public URL', () => {
    const endpoints = keyEndpoints('http://127.0.0.1:9000', 'abc', 'def', '42');
    expect(endpoints.public).toBe('http://abc@127.0.0.1:9000/42');
    expect(endpoints.secret).toBe('http://abc:def@127.0.0.1:9000/42');
    // Only what Faultline receives: no CSP, minidump, loader or OTLP URL that would answer 404.
    expect(Object.keys(endpoints).sort()).toEqual(['public', 'secret']);
  });

  it('keeps a path prefix of the public URL', () => {
    expect(keyEndpoints('https://errors.example.com/faultline/', 'k', 's', '7').public).toBe('https://k@errors.example.com/faultline/7');
  });
});
