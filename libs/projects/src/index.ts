export * from './contracts';
export { ProjectsModule } from './projects.module';
