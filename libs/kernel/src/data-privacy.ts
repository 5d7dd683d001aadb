/**
 * Sentry's data scrubbing settings, as projects and organizations both hold them (projects and
 * identity store them, ingest applies them): one shape, one set of limits, one merge rule.
 */
export interface DataPrivacySettings {
  /** Scrub data at all (Sentry's `dataScrubber`). */
  readonly dataScrubber: boolean;
  /** Apply the default rules (sensitive keys, card numbers, PEM keys, URL passwords, session cookies). */
  readonly dataScrubberDefaults: boolean;
  /** More keys whose values are scrubbed (matched anywhere in a key or value, case-insensitively). */
  readonly sensitiveFields: readonly string[];
  /** Keys never scrubbed. */
  readonly safeFields: readonly string[];
  /** Remove IP addresses (the user's, `REMOTE_ADDR`) and replace any in values. */
  readonly scrubIPAddresses: boolean;
}

/**
 * What one project or organization may configure. Every event of the project pays for each field
 * on each string it scrubs (a substring test), so both the number and the length are bounded; an
 * event's effective list is its organization's and its project's together, twice these at most.
 */
export const DATA_PRIVACY_LIMITS = Object.freeze({ maxFields: 50, maxFieldLength: 100 });

/** Sentry's defaults: a new project scrubs with the default rules; an organization requires nothing. */
export const PROJECT_DATA_PRIVACY_DEFAULTS: DataPrivacySettings = Object.freeze({
  dataScrubber: true,
  dataScrubberDefaults: true,
  sensitiveFields: [],
  safeFields: [],
  scrubIPAddresses: false,
});

export const ORGANIZATION_DATA_PRIVACY_DEFAULTS: DataPrivacySettings = Object.freeze({
  dataScrubber: false,
  dataScrubberDefaults: false,
  sensitiveFields: [],
  safeFields: [],
  scrubIPAddresses: false,
});

/**
 * What an event of the project is scrubbed with (Sentry's `get_datascrubbing_settings`): an
 * organization's requirement wins over the project's choice, field lists are joined, and IP
 * addresses are scrubbed when either asks.
 */
export function effectiveDataPrivacy(organization: DataPrivacySettings, project: DataPrivacySettings): DataPrivacySettings {
  return {
    dataScrubber: organization.dataScrubber || project.dataScrubber,
    dataScrubberDefaults: organization.dataScrubberDefaults || project.dataScrubberDefaults,
    sensitiveFields: [...new Set([...organization.sensitiveFields, ...project.sensitiveFields])],
    safeFields: [...new Set([...organization.safeFields, ...project.safeFields])],
    scrubIPAddresses: organization.scrubIPAddresses || project.scrubIPAddresses,
  };
}
