/** What every message about an issue shows: the issue as the issues context publishes it. */
export interface IssueDigest {
  readonly shortId: string;
  readonly title: string;
  readonly culprit: string;
  readonly level: string;
  readonly count: number;
  readonly firstSeen: string;
  readonly lastSeen: string;
  readonly projectName: string;
  readonly projectSlug: string;
  /** `function (file:line)` of the latest event's innermost in-app frame, when it has one. */
  readonly topFrame?: string;
  /** The issue's page. */
  readonly url: string;
}

/** One mail, serialised as a delivery body; the transport adds the sender. */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** The signed link that turns this kind of mail off (List-Unsubscribe), when there is one. */
  readonly unsubscribeUrl?: string;
}

export const CHAT_SERVICES = ['slack', 'discord', 'msteams', 'mattermost'] as const;
export type ChatService = (typeof CHAT_SERVICES)[number];

const LEVEL_COLOURS: Readonly<Record<string, string>> = { fatal: '#d1056b', error: '#e03e2f', warning: '#f5a623', info: '#2788ce', debug: '#8c8c8c' };
const colourOf = (level: string): string => LEVEL_COLOURS[level] ?? LEVEL_COLOURS.error;

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** The facts of an issue, one line each, in the order every message shows them. */
function facts(issue: IssueDigest): Array<[string, string]> {
  return [
    ['Project', issue.projectName || issue.projectSlug],
    ['Level', issue.level],
    ['Culprit', issue.culprit || '(unknown)'],
    ...(issue.topFrame ? [['Top in-app frame', issue.topFrame] as [string, string]] : []),
    ['Events', String(issue.count)],
    ['First seen', issue.firstSeen],
    ['Last seen', issue.lastSeen],
  ];
}

/**
 * A mail about an issue: `headline` says why it was sent (an alert rule fired, it was assigned to
 * you, ...). Plain-text and HTML parts carry the same facts and the link back.
 */
export function issueMail(to: string, headline: string, issue: IssueDigest, unsubscribeUrl?: string): MailMessage {
  const subject = `[${issue.projectSlug}] ${issue.shortId}: ${issue.title}`.replace(/[\r\n]+/g, ' ').slice(0, 250);
  const lines = facts(issue).map(([label, value]) => `${label}: ${value}`);
  const text = [
    headline,
    '',
    issue.title,
    '',
    ...lines,
    '',
    `View the issue: ${issue.url}`,
    ...(unsubscribeUrl ? ['', `Unsubscribe: ${unsubscribeUrl}`] : []),
  ].join('\n');
  const rows = facts(issue).map(
    ([label, value]) => `<tr><th align="left" style="padding-right:12px">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
  );
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif">',
    `<p>${escapeHtml(headline)}</p>`,
    `<h2 style="border-left:4px solid ${colourOf(issue.level)};padding-left:8px">${escapeHtml(issue.title)}</h2>`,
    `<table>${rows.join('')}</table>`,
    `<p><a href="${escapeHtml(issue.url)}">View the issue</a></p>`,
    ...(unsubscribeUrl ? [`<p style="font-size:small;color:#666"><a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe</a></p>`] : []),
    '</body></html>',
  ].join('');
  return { to, subject, text, html, ...(unsubscribeUrl ? { unsubscribeUrl } : {}) };
}

/** A plain mail with a link (an invitation, ...). */
export function linkMail(to: string, subject: string, paragraphs: readonly string[], link: { label: string; url: string }): MailMessage {
  const text = [...paragraphs, '', `${link.label}: ${link.url}`].join('\n\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif">',
    ...paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`,
    '</body></html>',
  ].join('');
  return { to, subject, text, html };
}

/** An issue alert as each chat service's incoming webhook takes it, in the service's own format. */
export function chatMessage(service: ChatService, headline: string, issue: IssueDigest): Record<string, unknown> {
  const fields = facts(issue);
  const fallback = `${headline}: ${issue.title} (${issue.url})`;
  switch (service) {
    case 'slack':
      return {
        text: slackText(fallback),
        blocks: [
          { type: 'section', text: { type: 'mrkdwn', text: `*<${issue.url}|${slackText(issue.title)}>*\n${slackText(headline)}` } },
          { type: 'section', fields: fields.map(([label, value]) => ({ type: 'mrkdwn', text: `*${label}*\n${slackText(value)}` })) },
          { type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'View issue' }, url: issue.url }] },
        ],
      };
    case 'discord':
      return {
        content: discordText(headline).slice(0, 2000),
        // No mention in a rule's name or an issue's title pings anyone, whatever Discord parses.
        allowed_mentions: { parse: [] },
        embeds: [
          {
            title: discordText(issue.title).slice(0, 256),
            url: issue.url,
            color: parseInt(colourOf(issue.level).slice(1), 16),
            fields: fields.map(([name, value]) => ({
              name,
              value: discordText(value).slice(0, 1024) || '-',
              inline: name !== 'Culprit' && name !== 'Top in-app frame',
            })),
            footer: { text: issue.shortId },
          },
        ],
      };
    case 'msteams':
      return {
        type: 'message',
        attachments: [
          {
            contentType: 'application/vnd.microsoft.card.adaptive',
            content: {
              $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
              type: 'AdaptiveCard',
              version: '1.4',
              body: [
                { type: 'TextBlock', text: headline, wrap: true },
                { type: 'TextBlock', text: issue.title, weight: 'Bolder', size: 'Medium', wrap: true },
                { type: 'FactSet', facts: fields.map(([title, value]) => ({ title, value })) },
              ],
              actions: [{ type: 'Action.OpenUrl', title: 'View issue', url: issue.url }],
            },
          },
        ],
      };
    case 'mattermost':
      return {
        text: headline,
        attachments: [
          {
            fallback,
            color: colourOf(issue.level),
            title: issue.title,
            title_link: issue.url,
            fields: fields.map(([title, value]) => ({ title, value, short: title !== 'Culprit' && title !== 'Top in-app frame' })),
          },
        ],
      };
  }
}

/**
 * Text of a Slack message (the `text` fallback and mrkdwn alike): `&`, `<` and `>` are its only
 * markup, so escaping them leaves `<!channel>`, `<@U123>` and forged `<url|label>` links as text.
 */
const slackText = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Text of a Discord message: a zero-width space after the `@` of `@everyone` and `@here`, so they read as text even where mentions are parsed. */
const discordText = (text: string): string => text.replace(/@(everyone|here)/gi, '@\u200b$1');
