import { checkEventsAllowed, mayInstall, subscribesTo, validateEvents, validateSchema, validateScopes } from './sentry-app';
import { appWebhookBody, SENTRY_ACTOR, webhookActorOf } from './app-webhook';

describe('service apps', () => {
  it('accepts the resource categories issue, error and comment only', () => {
    expect(validateEvents(['issue', 'comment', 'issue'])).toEqual(['comment', 'issue']);
    expect(() => validateEvents(['deploy'])).toThrow('Invalid event: deploy');
  });

  it('accepts known scopes only, and webhooks need event:read', () => {
    expect(validateScopes(['project:read', 'event:write'])).toEqual(['event:write', 'project:read']);
    expect(() => validateScopes(['root'])).toThrow('Unknown scope: root');
    expect(() => checkEventsAllowed(['issue'], new Set(['project:read']))).toThrow(/event:read/);
    expect(() => checkEventsAllowed(['issue'], new Set(['event:write']))).not.toThrow();
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
    expect(JSON.parse(body)).toEqual({ action: 'created', installation: { uuid: 'u-1' }, data: { issue: { id: '1', title: 'é "quoted"' } }, actor: SENTRY_ACTOR });
    expect(Object.keys(JSON.parse(body))).toEqual(['action', 'installation', 'data', 'actor']);
    expect(webhookActorOf({ type: 'system', id: 'system', name: 'Faultline' })).toEqual(SENTRY_ACTOR);
    expect(webhookActorOf({ type: 'user', id: '3', name: 'Jane' })).toEqual({ type: 'user', id: '3', name: 'Jane' });
  });
});
