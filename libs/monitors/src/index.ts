export { MonitorsModule } from './monitors.module';
export * from './contracts';
