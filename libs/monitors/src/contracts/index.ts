export * from './monitor-check-in-intake';
export { MonitorEnvironmentEventTypes } from '../domain/monitor-environment.events';
