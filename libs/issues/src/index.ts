export * from './contracts';
export { IssuesModule } from './issues.module';
