import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { readmeTable, table } = require('../scripts/route-table.cjs') as { readmeTable: (readme: string) => string | undefined; table: () => string };

/** The README's route table is the one the controllers give: a route added or moved shows there. */
describe("README's route table", () => {
  it('lists every route of the controllers with its file', () => {
    const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
    expect(readmeTable(readme)).toBe(table());
    expect(table()).toContain('| GET | `/api/0/organizations/{organization_id_or_slug}/issues/` | `libs/issues/src/api/issues.controller.ts` |');
  });
});
