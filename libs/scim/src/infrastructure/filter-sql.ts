import { isNumericId } from '@faultline/kernel';
import type { Filter } from '../domain/scim-filter';
import { ScimError } from '../domain/scim-error';

type AttributeType = 'string' | 'boolean' | 'datetime' | 'id';

/** A single-valued attribute: its SQL expression and how it compares. */
export interface Attribute {
  readonly sql: string;
  readonly type: AttributeType;
  /** RFC 7643 caseExact: false compares without case (userName, e-mails, names). */
  readonly caseExact?: boolean;
}

/** A multi-valued attribute: rows of a correlated FROM clause, with sub-attributes over them. */
export interface MultiValuedAttribute {
  /** `FROM ... WHERE ...` correlated with the resource (without the leading FROM). */
  readonly from: string;
  readonly subAttributes: Readonly<Record<string, Attribute>>;
  /** SQL that is true when the attribute has at least one value. */
  readonly present: string;
}

/** The attributes a resource type can be filtered on, keyed by lower-cased path. */
export interface FilterSchema {
  readonly attributes: Readonly<Record<string, Attribute>>;
  readonly multiValued: Readonly<Record<string, MultiValuedAttribute>>;
}

const COMPARISONS: Record<string, string> = { eq: '=', gt: '>', ge: '>=', lt: '<', le: '<=' };

/**
 * Translates a parsed filter into a SQL condition with numbered parameters, appended to `params`.
 * An attribute the schema does not know, or an operator its type does not support, is 400
 * invalidFilter: the filter is answered by PostgreSQL, never by filtering rows in memory.
 */
export function filterToSql(filter: Filter, schema: FilterSchema, params: unknown[]): string {
  return new Compiler(schema, params).compile(filter, schema.attributes, false);
}

class Compiler {
  constructor(
    private readonly schema: FilterSchema,
    private readonly params: unknown[],
  ) {}

  compile(filter: Filter, scope: Readonly<Record<string, Attribute>>, negated: boolean): string {
    switch (filter.op) {
      case 'and':
      case 'or':
        return `(${filter.filters.map((child) => this.compile(child, scope, negated)).join(` ${filter.op.toUpperCase()} `)})`;
      case 'not':
        return `(NOT ${this.compile(filter.filter, scope, true)})`;
      case '[]': {
        const multi = this.multiValued(filter.attrPath, scope);
        return `EXISTS (SELECT 1 FROM ${multi.from} AND ${this.compile(filter.valFilter, multi.subAttributes, false)})`;
      }
      default: {
        const path = filter.attrPath.toLowerCase();
        const attribute = scope[path];
        if (attribute) return this.leaf(filter, attribute, negated);
        if (scope !== this.schema.attributes) throw unsupported(filter.attrPath);
        // `emails.value eq "x"` or `emails eq "x"` (the value sub-attribute): some value matches.
        const dot = path.indexOf('.');
        const [parent, child] = dot < 0 ? [path, 'value'] : [path.slice(0, dot), path.slice(dot + 1)];
        const multi = this.schema.multiValued[parent];
        if (!multi) throw unsupported(filter.attrPath);
        if (filter.op === 'pr' && dot < 0) return `(${multi.present})`;
        const sub = multi.subAttributes[child];
        if (!sub) throw unsupported(filter.attrPath);
        return `EXISTS (SELECT 1 FROM ${multi.from} AND ${this.leaf(filter, sub, false)})`;
      }
    }
  }

  private multiValued(path: string, scope: Readonly<Record<string, Attribute>>) {
    const multi = scope === this.schema.attributes ? this.schema.multiValued[path.toLowerCase()] : undefined;
    if (!multi) throw unsupported(path);
    return multi;
  }

  private leaf(filter: Exclude<Filter, { op: 'and' | 'or' | 'not' | '[]' }>, attribute: Attribute, negated: boolean): string {
    const condition = this.comparison(filter, attribute);
    // Under NOT, a comparison with a missing value must count as false, not unknown.
    return negated ? `COALESCE(${condition}, false)` : condition;
  }

  private comparison(filter: Exclude<Filter, { op: 'and' | 'or' | 'not' | '[]' }>, attribute: Attribute): string {
    const column = attribute.sql;
    if (filter.op === 'pr') return attribute.type === 'string' ? `(${column} IS NOT NULL AND ${column} <> '')` : `(${column} IS NOT NULL)`;
    const { op, compValue } = filter;
    if (compValue === null) {
      if (op === 'eq') return `(${column} IS NULL)`;
      if (op === 'ne') return `(${column} IS NOT NULL)`;
      throw invalid(`"${op} null" is not a comparison`);
    }
    switch (attribute.type) {
      case 'boolean': {
        if (op !== 'eq' && op !== 'ne') throw invalid(`${filter.attrPath} is a boolean: only eq, ne and pr apply`);
        const value = typeof compValue === 'boolean' ? compValue : undefined;
        if (value === undefined) throw invalid(`${filter.attrPath} compares with true or false`);
        return op === 'eq' ? `(${column} = ${this.param(value)}::boolean)` : `(${column} IS DISTINCT FROM ${this.param(value)}::boolean)`;
      }
      case 'datetime': {
        if (typeof compValue !== 'string' || Number.isNaN(Date.parse(compValue))) throw invalid(`${filter.attrPath} compares with a date and time`);
        const value = `${this.param(new Date(compValue).toISOString())}::timestamptz`;
        if (op === 'ne') return `(${column} IS DISTINCT FROM ${value})`;
        if (!(op in COMPARISONS)) throw invalid(`${filter.attrPath} is a date and time: ${op} does not apply`);
        return `(${column} ${COMPARISONS[op]} ${value})`;
      }
      case 'id': {
        const text = String(compValue);
        if (op === 'eq' || op === 'ne') {
          // An id that is not a number matches nothing (and differs from everything).
          if (!isNumericId(text)) return op === 'eq' ? 'false' : 'true';
          return op === 'eq' ? `(${column} = ${this.param(text)}::bigint)` : `(${column} <> ${this.param(text)}::bigint)`;
        }
        return this.text(`${column}::text`, op, text, true);
      }
      case 'string':
        if (typeof compValue !== 'string' && typeof compValue !== 'number') throw invalid(`${filter.attrPath} compares with a string`);
        return this.text(column, op, String(compValue), attribute.caseExact === true);
    }
  }

  private text(column: string, op: string, value: string, caseExact: boolean): string {
    const fold = (sql: string) => (caseExact ? sql : `lower(${sql})`);
    const folded = caseExact ? value : value.toLowerCase();
    const like = folded.replace(/[\\%_]/g, (character) => `\\${character}`);
    switch (op) {
      case 'eq':
        return `(${fold(column)} = ${fold(this.param(value))})`;
      case 'ne':
        return `(${fold(column)} IS DISTINCT FROM ${fold(this.param(value))})`;
      case 'co':
        return `(${fold(column)} LIKE ${this.param(`%${like}%`)})`;
      case 'sw':
        return `(${fold(column)} LIKE ${this.param(`${like}%`)})`;
      case 'ew':
        return `(${fold(column)} LIKE ${this.param(`%${like}`)})`;
      default:
        if (!(op in COMPARISONS)) throw invalid(`unknown operator ${op}`);
        return `(${fold(column)} ${COMPARISONS[op]} ${fold(this.param(value))})`;
    }
  }

  private param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
}

const invalid = (detail: string) => ScimError.badRequest('invalidFilter', `Invalid filter: ${detail}`);
const unsupported = (path: string) => invalid(`filtering on "${path}" is not supported`);
