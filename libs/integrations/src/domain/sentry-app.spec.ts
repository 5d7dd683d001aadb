import fc from 'fast-check';
import { ALL_SCOPES, DomainError, expandScopes, scopesWithin } from '@faultline/kernel';
import {
  appScopes,
  checkEventsAllowed,
  componentUrl,
  declaredUris,
  linkedTicket,
  maskWebhookHeaders,
  mayInstall,
  selectOptions,
  subscribesTo,
  validateEvents,
  validateSchema,
  validateWebhookHeaders,
  webhookEventsOf,
  webhookHeadersUpdate,
} from './sentry-app';
import { appWebhookBody, SENTRY_ACTOR, webhookActorOf } from './app-webhook';

describe('service apps', () => {
  it('accepts the resource categories issue, error and comment only', () => {
    expect(validateEvents(['issue', 'comment', 'issue'])).toEqual(['comment', 'issue']);
    expect(() => validateEvents(['deploy'])).toThrow('Invalid event: deploy');
  });

  it('accepts known scopes the definer holds only, and webhooks need event:read', () => {
    const manager = expandScopes(['org:write', 'project:write', 'event:write']);
    expect(appScopes(['project:read', 'event:write'], manager)).toEqual(['event:write', 'project:read']);
    expect(() => appScopes(['root'], manager)).toThrow('Unknown scope: root');
    expect(() => appScopes(['org:admin'], manager)).toThrow(DomainError);
    expect(() => checkEventsAllowed(['issue'], new Set(['project:read']))).toThrow(/event:read/);
    expect(() => checkEventsAllowed(['issue'], new Set(['event:write']))).not.toThrow();
  });

  it('keeps scopes the app has for an editor who lacks them, and never widens a published app', () => {
    const editor = expandScopes(['org:write']);
    const app = { scopes: ['member:admin', 'event:write'], status: 'unpublished' as const };
    expect(appScopes(['member:admin', 'org:read'], editor, app)).toEqual(['member:admin', 'org:read']);
    expect(() => appScopes(['team:admin'], editor, app)).toThrow('You cannot grant scopes you do not have: team:admin');
    const published = { ...app, status: 'published' as const };
    expect(appScopes(['event:read'], editor, published)).toEqual(['event:read']);
    expect(() => appScopes(['event:write', 'member:admin', 'org:read'], expandScopes(['org:admin']), published)).toThrow(
      'Cannot update permissions on a published integration.',
    );
  });

  it('answers only scopes the editor holds or the app had, and none beyond a published app', () => {
    const grant = fc.subarray([...ALL_SCOPES]);
    fc.assert(
      fc.property(
        grant,
        grant,
        grant,
        fc.constantFrom('unpublished', 'published', 'internal') as fc.Arbitrary<'unpublished' | 'published' | 'internal'>,
        (requested, held, current, status) => {
          const allowed = scopesWithin(requested, [...held, ...current]) && (status !== 'published' || scopesWithin(requested, current));
          const decide = () => appScopes(requested, expandScopes(held), { scopes: current, status });
          if (allowed) expect(decide()).toEqual([...requested].sort());
          else expect(decide).toThrow(DomainError);
        },
      ),
    );
  });

  it('accepts UI components of known types', () => {
    expect(validateSchema({ elements: [{ type: 'issue-link' }] }).elements).toHaveLength(1);
    expect(() => validateSchema({ elements: [{ type: 'sidebar' }] })).toThrow(/schema.elements/);
    expect(() => validateSchema({ elements: 'x' })).toThrow(/list/);
  });

  it('is installable by its owner, and by anyone once published', () => {
    expect(mayInstall({ status: 'unpublished', ownerOrganizationId: '1' }, '1')).toBe(true);
    expect(mayInstall({ status: 'unpublished', ownerOrganizationId: '1' }, '2')).toBe(false);
    expect(mayInstall({ status: 'publish_request_inprogress', ownerOrganizationId: '1' }, '2')).toBe(false);
    expect(mayInstall({ status: 'published', ownerOrganizationId: '1' }, '2')).toBe(true);
  });

  it('receives installation webhooks always, alerts when alertable, the rest by subscription', () => {
    const app = { events: ['issue'], isAlertable: false };
    expect(subscribesTo(app, 'installation')).toBe(true);
    expect(subscribesTo(app, 'issue')).toBe(true);
    expect(subscribesTo(app, 'comment')).toBe(false);
    expect(subscribesTo(app, 'event_alert')).toBe(false);
    expect(subscribesTo({ ...app, isAlertable: true }, 'metric_alert')).toBe(true);
  });

  it('writes the webhook body as JSON.stringify does, with Sentry as the actor when nobody acted', () => {
    const body = appWebhookBody('created', 'u-1', { issue: { id: '1', title: 'é "quoted"' } }, undefined);
    expect(body).toBe(JSON.stringify(JSON.parse(body)));
    expect(JSON.parse(body)).toEqual({
      action: 'created',
      installation: { uuid: 'u-1' },
      data: { issue: { id: '1', title: 'é "quoted"' } },
      actor: SENTRY_ACTOR,
    });
    expect(Object.keys(JSON.parse(body))).toEqual(['action', 'installation', 'data', 'actor']);
    expect(webhookActorOf({ type: 'system', id: 'system', name: 'Faultline' })).toEqual(SENTRY_ACTOR);
    expect(webhookActorOf({ type: 'user', id: '3', name: 'Jane' })).toEqual({ type: 'user', id: '3', name: 'Jane' });
  });
});

describe('UI components and custom headers', () => {
  const schema = {
    elements: [
      { type: 'issue-link', create: { uri: '/create', required_fields: [{ type: 'select', name: 'board', uri: '/boards' }] }, link: { uri: '/link' } },
      { type: 'alert-rule-action', settings: { uri: '/alert' } },
    ],
  };

  it('knows every URI the schema declares, and resolves them on the webhook URL origin only', () => {
    expect([...declaredUris(schema)].sort()).toEqual(['/alert', '/boards', '/create', '/link']);
    expect(componentUrl('https://app.example:8443/hooks/in', '/boards')).toBe('https://app.example:8443/boards');
    expect(() => componentUrl('https://app.example/hooks', 'https://evil.example/x')).toThrow(/path/);
    expect(() => componentUrl('https://app.example/hooks', '//evil.example/x')).toThrow(/path/);
  });

  it("turns the app's options into Sentry's choices, with the default the app marks", () => {
    expect(
      selectOptions([
        { label: 'A', value: 'a' },
        { label: 'B', value: 'b', default: true },
      ]),
    ).toEqual({
      choices: [
        ['a', 'A'],
        ['b', 'B'],
      ],
      defaultValue: 'b',
    });
    expect(selectOptions([])).toEqual({ choices: [] });
    expect(() => selectOptions({ a: 1 })).toThrow(/not a list/);
    expect(() => selectOptions([{ label: 'A' }])).toThrow(/label and value/);
  });

  it('accepts a linked ticket only with an http(s) webUrl, a project and an identifier', () => {
    expect(linkedTicket({ webUrl: 'https://t.example/1', project: 'OPS', identifier: '1', extra: true })).toEqual({
      webUrl: 'https://t.example/1',
      project: 'OPS',
      identifier: '1',
    });
    expect(() => linkedTicket({ webUrl: 'javascript:alert(1)', project: 'OPS', identifier: '1' })).toThrow(/webUrl/);
    expect(() => linkedTicket(null)).toThrow(/webUrl/);
  });

  it('accepts custom "Name: value" headers that do not replace the signed ones', () => {
    expect(validateWebhookHeaders(['X-Tenant:  acme '])).toEqual(['X-Tenant: acme']);
    expect(() => validateWebhookHeaders(['no colon'])).toThrow(/Name: value/);
    expect(() => validateWebhookHeaders(['Sentry-Hook-Signature: x'])).toThrow(/cannot be overridden/);
    expect(() => validateWebhookHeaders(['content-type: text/plain'])).toThrow(/cannot be overridden/);
  });

  it("shows custom headers' names only, and an update writing a masked value back keeps the stored one", () => {
    const stored = ['Authorization: Bearer s3cret', 'X-Tenant: acme'];
    expect(maskWebhookHeaders(stored)).toEqual(['Authorization: **********', 'X-Tenant: **********']);
    expect(webhookHeadersUpdate([...maskWebhookHeaders(stored), 'X-New: **********'], stored)).toEqual([...stored, 'X-New: **********']);
    expect(webhookHeadersUpdate(['authorization: Bearer new', 'X-TENANT: **********'], stored)).toEqual(['authorization: Bearer new', 'X-Tenant: acme']);
  });

  it('lists the webhook events a subscription stands for', () => {
    expect(webhookEventsOf(['comment', 'error'])).toEqual(['comment.created', 'comment.deleted', 'comment.updated', 'error.created']);
  });
});
