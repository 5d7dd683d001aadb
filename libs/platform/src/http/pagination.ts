import { BadRequestException, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const MAX_PER_PAGE = 100;

export interface PageRequest {
  readonly offset: number;
  readonly limit: number;
}

/** Sentry's cursor is `value:offset:is_prev`; Faultline pages by offset and keeps value 0. */
export function parsePageRequest(query: Record<string, unknown>, defaultPerPage = MAX_PER_PAGE): PageRequest {
  let limit = defaultPerPage;
  if (query.per_page !== undefined) {
    const raw = String(query.per_page);
    limit = Number(raw);
    if (!/^\d+$/.test(raw) || limit < 1 || limit > MAX_PER_PAGE) {
      throw new BadRequestException({ detail: 'Invalid per_page parameter.' });
    }
  }
  let offset = 0;
  if (query.cursor !== undefined && query.cursor !== '') {
    const match = /^(\d+):(\d+):([01])$/.exec(String(query.cursor));
    if (!match || !Number.isSafeInteger(Number(match[2]))) {
      throw new BadRequestException({ detail: 'Invalid cursor parameter.' });
    }
    offset = Number(match[2]);
  }
  return { offset, limit };
}

export function linkHeader(baseUrl: string, query: Record<string, unknown>, page: PageRequest, hasMore: boolean): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (key !== 'cursor' && value !== undefined) params.append(key, String(value));
  }
  const link = (cursor: string, rel: string, results: boolean) => {
    const search = new URLSearchParams(params);
    search.set('cursor', cursor);
    return `<${baseUrl}?${search.toString()}>; rel="${rel}"; results="${results}"; cursor="${cursor}"`;
  };
  const previousOffset = Math.max(0, page.offset - page.limit);
  return [link(`0:${previousOffset}:1`, 'previous', page.offset > 0), link(`0:${page.offset + page.limit}:0`, 'next', hasMore)].join(', ');
}

/** One page of a list: reads one row more than it answers to know whether another page exists. */
export class Pagination {
  constructor(
    readonly page: PageRequest,
    private readonly reply: FastifyReply,
    private readonly baseUrl: string,
    private readonly query: Record<string, unknown>,
  ) {}

  /** The LIMIT to ask the database for. */
  get fetchLimit(): number {
    return this.page.limit + 1;
  }

  get offset(): number {
    return this.page.offset;
  }

  respond<T>(rows: T[]): T[] {
    const hasMore = rows.length > this.page.limit;
    void this.reply.header('Link', linkHeader(this.baseUrl, this.query, this.page, hasMore));
    return hasMore ? rows.slice(0, this.page.limit) : rows;
  }

  /** Sentry's `X-Hits` (how many match, counted up to `max`) and `X-Max-Hits`. */
  hits(total: number, max: number): void {
    void this.reply.header('X-Hits', String(total));
    void this.reply.header('X-Max-Hits', String(max));
  }
}

export const PUBLIC_URL_KEY = 'faultlinePublicUrl';

export const Paginate = createParamDecorator((_data: unknown, context: ExecutionContext): Pagination => {
  const http = context.switchToHttp();
  const request = http.getRequest<FastifyRequest>();
  const reply = http.getResponse<FastifyReply>();
  const query = (request.query ?? {}) as Record<string, unknown>;
  const publicUrl = (request.server as unknown as Record<string, string>)[PUBLIC_URL_KEY] ?? '';
  const path = request.url.split('?')[0];
  return new Pagination(parsePageRequest(query), reply, `${publicUrl}${path}`, query);
});
