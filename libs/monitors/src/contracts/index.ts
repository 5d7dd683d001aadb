export * from './monitor-check-in-intake';
export { MonitorSweep } from './monitor-sweep';
export { MonitorEnvironmentEventTypes } from '../domain/monitor-environment.events';
export { MonitorEventTypes, type MonitorFailureOccurredData } from '../domain/monitor-failure.events';
