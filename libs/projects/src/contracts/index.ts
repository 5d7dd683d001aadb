export { ProjectEventTypes } from '../domain/project.events';
export { keyEndpoints } from '../domain/dsn';
export { CreateProjectCommand } from '../application/commands/create-project/create-project.command';
export { CreateProjectKeyCommand } from '../application/commands/create-project-key/create-project-key.command';
export { FindProjectQuery, type ProjectSummary } from '../application/queries/find-project.query';
export { FindProjectKeyQuery, type ProjectKeyAccess } from '../application/queries/find-project-key.query';
export { FindProjectKeysQuery, type ProjectKeySummary } from '../application/queries/find-project-keys.query';
export { projectDetailSql } from '../infrastructure/projects.repository';
export { requireProject } from './require-project';
