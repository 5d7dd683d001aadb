import type { FastifyInstance } from 'fastify';
import { ERROR_SCHEMA } from '../domain/scim-schemas';
import { SCIM_CONTENT_TYPE } from './scim-exception.filter';
import { scimErrorBody } from './scim.serializers';

const SCIM_PATH = /^\/api\/0\/organizations\/[^/]+\/scim\/v2(\/|\?|$)/;

/**
 * What SCIM needs of the HTTP server beyond its controllers: bodies sent as
 * `application/scim+json` are read as JSON, SCIM answers carry that content type, and errors
 * raised before a SCIM controller runs (a malformed body, an unknown SCIM path, a body too large)
 * are answered in SCIM's error format too.
 */
export function registerScimHttp(fastify: FastifyInstance): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'ignore');
  fastify.addContentTypeParser('application/scim+json', { parseAs: 'string' }, (request, body, done) =>
    parseJson(request, String(body), (error, value) => {
      if (!error) return done(null, value);
      done(Object.assign(new Error('Malformed JSON body.'), { statusCode: 400 }), undefined);
    }),
  );
  fastify.addHook('onSend', async (request, reply, payload) => {
    if (!SCIM_PATH.test(request.url)) return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    if (reply.statusCode >= 400 && typeof payload === 'string' && !payload.includes(ERROR_SCHEMA)) {
      let detail = 'Error';
      try {
        detail = String((JSON.parse(payload) as { detail?: unknown }).detail ?? detail);
      } catch {
        // not JSON: keep the generic detail
      }
      void reply.header('content-type', SCIM_CONTENT_TYPE);
      return JSON.stringify(scimErrorBody(reply.statusCode, detail, reply.statusCode === 400 ? 'invalidSyntax' : undefined));
    }
    if (type.startsWith('application/json')) void reply.header('content-type', SCIM_CONTENT_TYPE);
    return payload;
  });
}
