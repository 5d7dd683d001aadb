import { type ErrorPayload, errorPayload, type ErrorPayloadSource } from '@faultline/integrations';
import type { AppActionSetting } from '../domain';

/** The event that made an issue alert fire, in an organization known by slug. */
export type AlertEventSource = ErrorPayloadSource & { readonly organizationSlug: string };

export interface EventAlertTriggeredData {
  event: ErrorPayload;
  triggered_rule: string;
  issue_alert: { id: number; title: string; sentry_app_id: string | null; settings: AppActionSetting[] };
}

/** `event_alert.triggered`: the event that made the rule fire (the integration platform's error payload) and the rule with the action's settings. */
export function eventAlertTriggeredData(
  publicUrl: string,
  event: AlertEventSource,
  rule: { id: string; name: string },
  action: { settings: readonly AppActionSetting[]; sentryAppId?: string | null },
): EventAlertTriggeredData {
  return {
    event: errorPayload(publicUrl, event),
    triggered_rule: rule.name,
    issue_alert: {
      id: Number(rule.id),
      title: rule.name,
      sentry_app_id: action.sentryAppId ?? null,
      settings: action.settings.map((setting) => ({ name: setting.name, value: setting.value })),
    },
  };
}
