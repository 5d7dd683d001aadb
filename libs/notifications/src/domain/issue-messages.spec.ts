import { CHAT_SERVICES, chatMessage, type IssueDigest, issueMail } from './issue-messages';

const issue: IssueDigest = {
  shortId: 'WEB-3',
  title: 'TypeError: <b>x</b> is undefined',
  culprit: 'app/cart.js in total',
  level: 'error',
  count: 12,
  firstSeen: '2026-01-01T00:00:00.000Z',
  lastSeen: '2026-01-02T00:00:00.000Z',
  projectName: 'Web',
  projectSlug: 'web',
  url: 'https://errors.example.com/organizations/acme/issues/3/',
};

describe('issueMail', () => {
  it('has a text and an HTML part with the facts and the link; the HTML escapes what the SDK sent', () => {
    const mail = issueMail('dev@example.com', 'Assigned to you.', issue, 'https://errors.example.com/unsubscribe/t/');
    expect(mail.subject).toBe('[web] WEB-3: TypeError: <b>x</b> is undefined');
    for (const fact of [
      'Project: Web',
      'Level: error',
      'Culprit: app/cart.js in total',
      'Events: 12',
      'First seen: 2026-01-01T00:00:00.000Z',
      `View the issue: ${issue.url}`,
    ]) {
      expect(mail.text).toContain(fact);
    }
    expect(mail.html).toContain('TypeError: &lt;b&gt;x&lt;/b&gt; is undefined');
    expect(mail.html).not.toContain('<b>x</b>');
    expect(mail.html).toContain(`href="${issue.url}"`);
    expect(mail.unsubscribeUrl).toBe('https://errors.example.com/unsubscribe/t/');
    expect(mail.text).not.toContain('Top in-app frame');
    expect(issueMail('dev@example.com', 'x', { ...issue, topFrame: 'total (app/cart.js:12)' }).text).toContain('Top in-app frame: total (app/cart.js:12)');
  });
});

describe('chatMessage', () => {
  it.each(CHAT_SERVICES)('%s: a JSON body with the title and the link', (service) => {
    const body = JSON.stringify(chatMessage(service, 'Rule fired.', issue));
    expect(body).toContain(JSON.stringify(issue.url));
    expect(body).toContain('app/cart.js in total');
  });

  it("keeps a title's line breaks out of the subject, and Discord from pinging anyone", () => {
    expect(issueMail('a@b.c', 'x', { ...issue, title: 'a\r\nBcc: evil@example.com' }).subject).toBe('[web] WEB-3: a Bcc: evil@example.com');
    expect(chatMessage('discord', '@everyone', issue)).toMatchObject({ allowed_mentions: { parse: [] } });
  });

  it('escapes Slack mrkdwn in the title so it cannot forge a link', () => {
    const slack = chatMessage('slack', 'x', { ...issue, title: '<https://evil.example|click>' }) as { blocks: Array<{ text?: { text: string } }> };
    expect(slack.blocks[0].text?.text).toContain('&lt;https://evil.example|click&gt;');
  });

  it('lets no mention in an issue title or a rule name reach Slack or Discord as one', () => {
    const mentions = '<!channel> @everyone <@U123>';
    const pinging = { ...issue, title: mentions, culprit: '<!here> @here' };
    const slack = JSON.stringify(chatMessage('slack', `Alert rule "${mentions}" fired.`, pinging));
    expect(slack).toContain('&lt;!channel&gt; @everyone &lt;@U123&gt;');
    expect(slack).not.toMatch(/<[!@#]/);
    const discord = chatMessage('discord', `Alert rule "${mentions}" fired.`, pinging);
    expect(discord).toMatchObject({ allowed_mentions: { parse: [] } });
    expect(JSON.stringify(discord)).not.toMatch(/@(everyone|here)/);
    expect((discord as { content: string }).content).toContain('@\u200beveryone');
  });
});
