import { BadRequestException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/** A multipart/form-data body (kept as bytes by the module's parser) read with the platform's own FormData. */
export async function readMultipart(request: FastifyRequest): Promise<FormData> {
  const contentType = request.headers['content-type'] ?? '';
  if (!Buffer.isBuffer(request.body) || !contentType.startsWith('multipart/form-data'))
    throw new BadRequestException({ detail: 'Expected a multipart/form-data body.' });
  try {
    return await new Response(request.body, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new BadRequestException({ detail: 'The multipart body cannot be read.' });
  }
}
