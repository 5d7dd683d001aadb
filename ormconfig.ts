import 'reflect-metadata';
import { createDataSource, dataSourceOptionsFrom, loadConfig } from '@faultline/platform';
import { MIGRATIONS } from './migrations';

/** The DataSource for TypeORM's own CLI (for example `typeorm migration:show -d dist/ormconfig.js`). */
export default createDataSource(dataSourceOptionsFrom(loadConfig(), MIGRATIONS));
