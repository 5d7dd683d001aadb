import { mailConfig } from './mail-config';

describe('mailConfig', () => {
  it('without SMTP_URL sends nothing and names a sender from PUBLIC_URL', () => {
    expect(mailConfig({}, 'https://errors.example.com')).toEqual({
      smtpUrl: undefined,
      from: 'Faultline <faultline@errors.example.com>',
      timeoutMs: 30_000,
      retryScheduleSeconds: [10, 60, 300, 1800, 7200, 18000, 36000, 36000],
    });
  });

  it('takes smtp:// and smtps:// URLs, a sender and a retry schedule', () => {
    expect(
      mailConfig({ SMTP_URL: 'smtps://u:p@mail.example.com:465', MAIL_FROM: 'Errors <e@example.com>', MAIL_RETRY_SCHEDULE: '1, 2' }, 'http://x'),
    ).toMatchObject({
      smtpUrl: 'smtps://u:p@mail.example.com:465',
      from: 'Errors <e@example.com>',
      retryScheduleSeconds: [1, 2],
    });
  });

  it.each([
    [{ SMTP_URL: 'http://mail.example.com' }, 'SMTP_URL'],
    [{ SMTP_URL: 'not a url' }, 'SMTP_URL'],
    [{ MAIL_FROM: 'nobody' }, 'MAIL_FROM'],
    [{ MAIL_FROM: 'a@b.c\r\nBcc: x@y.z' }, 'MAIL_FROM'],
    [{ MAIL_RETRY_SCHEDULE: '1,soon' }, 'MAIL_RETRY_SCHEDULE'],
    [{ MAIL_TIMEOUT_MS: '5' }, 'MAIL_TIMEOUT_MS'],
  ])('refuses %j, naming %s', (env, name) => {
    expect(() => mailConfig(env, 'http://x')).toThrow(name);
  });
});
