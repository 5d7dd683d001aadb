import { APP_CONFIG, type AppConfig, integerSetting } from '@faultline/platform';
import { EVENT_ATTACHMENT_LIMITS } from '../domain/event-attachment';

export const ATTACHMENTS_CONFIG = Symbol('ATTACHMENTS_CONFIG');

export interface AttachmentsConfig {
  /** Largest attachment kept; a larger one is dropped (and counted), its event kept. */
  readonly maxBytes: number;
}

/** The attachments' limits, from the environment (docs/attachments.md). */
export function attachmentsConfig(env: Readonly<Record<string, string | undefined>>): AttachmentsConfig {
  return { maxBytes: integerSetting(env, 'ATTACHMENT_MAX_BYTES', EVENT_ATTACHMENT_LIMITS.maxBytes, 1, EVENT_ATTACHMENT_LIMITS.maxBytes) };
}

export const attachmentsConfigProvider = {
  provide: ATTACHMENTS_CONFIG,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) => attachmentsConfig(config.environment),
};
