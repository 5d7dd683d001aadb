import { DomainError } from '@faultline/kernel';
import { scanSearchQuery, textTerm } from '@faultline/issues';
import { type MetricQueryFilter, metricQueryFilter } from '../domain';

/**
 * A metric rule's query, read with issue search's grammar (quoting, lists, `!` and `!=`), as the
 * environments and levels it keeps. A query it cannot read is a DomainError (400).
 */
export function parseMetricQuery(query: string): MetricQueryFilter {
  const terms = scanSearchQuery(query).map((term) =>
    term.type === 'filter' ? { type: 'filter' as const, key: term.key, ...textTerm(term) } : { type: 'text' as const },
  );
  const checked = metricQueryFilter(terms);
  if ('error' in checked) throw DomainError.invalid(checked.error, { field: checked.field });
  return checked.ok;
}
