import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { documentedTable, table, PAGE } = require('../scripts/route-table.cjs') as {
  documentedTable: (page: string) => string | undefined;
  table: () => string;
  PAGE: string;
};

/** The documented route table is the one the controllers give: a route added or moved shows there. */
describe(`the route table of ${PAGE}`, () => {
  it('lists every route of the controllers with its file', () => {
    const page = readFileSync(join(__dirname, '..', PAGE), 'utf8');
    expect(documentedTable(page)).toBe(table());
    expect(table()).toContain('| GET | `/api/0/organizations/{organization_id_or_slug}/issues/` | `libs/issues/src/api/issues.controller.ts` |');
  });
});
