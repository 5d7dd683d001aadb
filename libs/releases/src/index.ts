export { ReleasesModule } from './releases.module';
export * from './contracts';
