import { formatStartBanner } from './start-banner';

describe('formatStartBanner', () => {
  const project = { org: 'acme', slug: 'web', dsn: 'http://abc@127.0.0.1:9000/1' };

  it('says where to go, who to sign in as and where to send errors', () => {
    const text = formatStartBanner({ url: 'http://127.0.0.1:9000', email: 'admin@localhost', project });
    expect(text).toContain('Open http://127.0.0.1:9000/ and sign in as admin@localhost');
    expect(text).toContain('DSN of acme/web: http://abc@127.0.0.1:9000/1');
    expect(text).toContain('http://127.0.0.1:9000/settings/acme/projects/web/keys/');
    expect(text).not.toContain('Password');
    expect(() => JSON.parse(text.trim().split('\n')[0])).toThrow();
  });

  it('shows a password or token generated at this start', () => {
    const text = formatStartBanner({ url: 'http://h:1', email: 'a@b', generatedPassword: 'pw-1', generatedToken: 'sntryu_x' });
    expect(text).toContain('Password: pw-1');
    expect(text).toContain('API token: sntryu_x');
    expect(text).not.toContain('DSN');
  });
});
