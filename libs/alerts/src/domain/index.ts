export * from './issue-rule';
export * from './metric-rule';
export * from './incident.events';
export * from './incident.aggregate';
export * from './alert-rule.events';
export * from './app-payloads';
export * from './app-action-settings';
