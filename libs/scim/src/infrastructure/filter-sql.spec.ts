import { parseFilter } from '../domain/scim-filter';
import { ScimError } from '../domain/scim-error';
import { filterToSql } from './filter-sql';
import { GROUP_FILTER_SCHEMA, USER_FILTER_SCHEMA } from './scim-read.repository';

function sql(expression: string, schema = USER_FILTER_SCHEMA) {
  const params: unknown[] = ['org'];
  return { text: filterToSql(parseFilter(expression)!, schema, params), params: params.slice(1) };
}

describe('SCIM filters in SQL', () => {
  it('compares userName without case, in the form the (organization_id, lower(user_name)) index serves', () => {
    expect(sql('userName eq "Jane@Example.com"')).toEqual({ text: '(lower(v.user_name) = lower($2))', params: ['Jane@Example.com'] });
  });

  it('keeps externalId case-exact', () => {
    expect(sql('externalId eq "00uAbC"')).toEqual({ text: '(v.external_id = $2)', params: ['00uAbC'] });
  });

  it('escapes LIKE wildcards in co, sw and ew', () => {
    expect(sql('userName co "50%_off"').params).toEqual(['%50\\%\\_off%']);
    expect(sql('userName sw "A"').params).toEqual(['a%']);
    expect(sql('userName ew "b"').params).toEqual(['%b']);
  });

  it('nests and, or, not and grouping, and makes missing values false under not', () => {
    expect(sql('not (displayName eq "x") and (active eq true or userName pr)').text).toBe(
      "((NOT COALESCE((lower(v.display_name) = lower($2)), false)) AND ((v.active = $3::boolean) OR (v.user_name IS NOT NULL AND v.user_name <> '')))",
    );
  });

  it('reads value paths and dotted multi-valued attributes as EXISTS over the values', () => {
    expect(sql('emails[type eq "work" and value co "@x"]').text).toBe(
      "EXISTS (SELECT 1 FROM jsonb_array_elements(v.emails) AS e(x) WHERE true AND ((lower((e.x->>'type')) = lower($2)) AND (lower((e.x->>'value')) LIKE $3)))",
    );
    expect(sql('emails.value eq "a@b"').text).toBe(
      "EXISTS (SELECT 1 FROM jsonb_array_elements(v.emails) AS e(x) WHERE true AND (lower((e.x->>'value')) = lower($2)))",
    );
    expect(sql('members.value eq "12"', GROUP_FILTER_SCHEMA)).toEqual({
      text: 'EXISTS (SELECT 1 FROM identity.scim_group_members gm WHERE gm.team_id = v.id AND (gm.member_id = $2::bigint))',
      params: ['12'],
    });
  });

  it('compares dates as timestamps and ids as numbers', () => {
    expect(sql('meta.lastModified gt "2024-01-02T03:04:05Z"')).toEqual({ text: '(v.last_modified > $2::timestamptz)', params: ['2024-01-02T03:04:05.000Z'] });
    expect(sql('id eq "42"')).toEqual({ text: '(v.id = $2::bigint)', params: ['42'] });
    expect(sql('id eq "x"').text).toBe('false');
  });

  it.each([['nickName eq "x"'], ['active co "t"'], ['meta.created sw "2024"'], ['emails[nope eq "x"]'], ['userName gt null'], ['active eq "yes"']])(
    'refuses %s as invalidFilter',
    (expression) => {
      expect(() => sql(expression)).toThrow(ScimError);
      try {
        sql(expression);
      } catch (error) {
        expect((error as ScimError).scimType).toBe('invalidFilter');
      }
    },
  );

  it('reads literals in any case, and an empty filter as none', () => {
    expect(sql('active eq TRUE').params).toEqual([true]);
    expect(parseFilter('  ')).toBeUndefined();
    expect(() => parseFilter('userName eq')).toThrow(ScimError);
  });
});
