import 'reflect-metadata';
import { runningServerUrl } from '@faultline/embedded-postgres';
import { createDataSource, dataSourceOptionsFrom, loadConfig } from '@faultline/platform';
import { MIGRATIONS } from './migrations';

const config = loadConfig();
const url = config.databaseUrl ?? runningServerUrl(config.dataDir);
if (!url) throw new Error(`Set DATABASE_URL, or start the service so that the embedded database in ${config.dataDir} runs`);

/** The DataSource for TypeORM's own CLI (for example `typeorm migration:show -d dist/ormconfig.js`). */
export default createDataSource(dataSourceOptionsFrom(config, url, MIGRATIONS));
