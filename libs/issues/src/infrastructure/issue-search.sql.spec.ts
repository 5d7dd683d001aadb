import fc from 'fast-check';
import { DomainError } from '@faultline/kernel';
import { parseIssueSearch } from '../application/queries/issue-search';
import { issueSearchConditions, searchesLatestRelease } from './issue-search.sql';

const context = { now: new Date('2025-03-10T12:00:00.000Z'), userId: '7' };

function sql(query: string, latestReleases: string[] = []): { text: string; params: unknown[] } {
  const params: unknown[] = [];
  const conditions = issueSearchConditions(parseIssueSearch(query, context), { params, organizationId: '41', latestReleases });
  return { text: conditions.join(' AND '), params };
}

describe('issueSearchConditions', () => {
  it('binds every value the user typed as a parameter', () => {
    const { text, params } = sql(`environment:prod' region:*e%u* !level:error timesSeen:>5 assigned:#ops firstSeen:-1d "Robert'); DROP"`);
    expect(text).not.toMatch(/prod|e%u|ops|Robert|DROP/);
    expect(params).toEqual(
      expect.arrayContaining([["prod'"], '%e\\%u%', ['error'], '5', 'ops', '2025-03-09T12:00:00.000Z', "%Robert'); DROP%", "Robert'); DROP"]),
    );
    expect(text).toContain('t.value LIKE $');
    expect(text).toContain("ESCAPE '\\'");
  });

  it("puts the projects' latest releases in place of latest", () => {
    const search = parseIssueSearch('release:[latest, web@1.0.0]', context);
    expect(searchesLatestRelease(search)).toBe(true);
    expect(searchesLatestRelease(parseIssueSearch('release:web@1.0.0', context))).toBe(false);
    expect(sql('release:[latest, web@1.0.0]', ['web@2.0.0']).params).toContainEqual(['web@2.0.0', 'web@1.0.0']);
    expect(sql('firstRelease:latest').params).toContainEqual([]);
  });

  it('keeps assignee lookups within the organization', () => {
    const { text, params } = sql('assigned:carol@acme.test assigned:#ops assigned:my_teams');
    const organizations = [...text.matchAll(/organization_id = \$(\d+)::bigint/g)].map((match) => params[Number(match[1]) - 1]);
    expect(organizations).toEqual(['41', '41', '41']);
  });

  it('never writes user input into the SQL, whatever the query', () => {
    const marker = fc.stringMatching(/^[a-z]{0,3}$/).map((tail) => `zqx${tail}`);
    const piece = fc.oneof(
      marker,
      fc.constantFrom(
        'is:resolved',
        'has:',
        '!',
        ':',
        '"',
        '*',
        '[',
        ']',
        ',',
        ' ',
        'assigned:',
        'release:',
        'timesSeen:>',
        'message:',
        "'",
        ';',
        '--',
        '\\',
        '#',
      ),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (parts) => {
        try {
          expect(sql(parts.join('')).text.toLowerCase()).not.toContain('zqx');
        } catch (caught) {
          if (!(caught instanceof DomainError)) throw caught;
        }
      }),
      { numRuns: 2000 },
    );
  });
});
