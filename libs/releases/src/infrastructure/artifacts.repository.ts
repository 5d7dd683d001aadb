import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import type { BundleFile } from './artifact-bundle-reader';

export interface ArtifactMatch {
  url: string | null;
  debug_id: string | null;
  sourcemap: string | null;
  file_checksum: string;
  bundle_id: string;
}

/** Chunks left behind by an upload that was never assembled are dropped after a day. */
const ABANDONED_CHUNK_MS = 24 * 60 * 60 * 1000;

@Injectable()
export class ArtifactsRepository {
  /** Which of these chunks the organization has not uploaded yet. */
  async missingChunks(sql: Sql, organizationId: string, checksums: readonly string[]): Promise<string[]> {
    const rows = await sql.query<{ checksum: string }>(
      `SELECT c AS checksum FROM unnest($2::text[]) AS c WHERE NOT EXISTS (SELECT 1 FROM releases.chunks WHERE organization_id = $1 AND checksum = c)`,
      [organizationId, checksums],
    );
    return rows.map((row) => row.checksum);
  }

  async saveChunks(sql: Sql, organizationId: string, chunks: ReadonlyArray<{ checksum: string; content: Buffer }>, now: Date): Promise<void> {
    for (const chunk of chunks) {
      await sql.execute(
        `INSERT INTO releases.chunks (organization_id, checksum, content, uploaded_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (organization_id, checksum) DO UPDATE SET uploaded_at = EXCLUDED.uploaded_at`,
        [organizationId, chunk.checksum, chunk.content, now],
      );
    }
    await sql.execute(`DELETE FROM releases.chunks WHERE uploaded_at < $1`, [new Date(now.getTime() - ABANDONED_CHUNK_MS)]);
  }

  /** The chunks' bytes in the order given; null when one is missing. */
  async chunkContents(sql: Sql, organizationId: string, checksums: readonly string[]): Promise<Buffer[] | null> {
    const rows = await sql.query<{ checksum: string; content: Buffer }>(
      `SELECT checksum, content FROM releases.chunks WHERE organization_id = $1 AND checksum = ANY($2::text[])`,
      [organizationId, [...new Set(checksums)]],
    );
    const byChecksum = new Map(rows.map((row) => [row.checksum, row.content]));
    const contents: Buffer[] = [];
    for (const checksum of checksums) {
      const content = byChecksum.get(checksum);
      if (!content) return null;
      contents.push(content);
    }
    return contents;
  }

  async dropChunks(sql: Sql, organizationId: string, checksums: readonly string[]): Promise<void> {
    await sql.execute(`DELETE FROM releases.chunks WHERE organization_id = $1 AND checksum = ANY($2::text[])`, [organizationId, checksums]);
  }

  async bundleExists(sql: Sql, organizationId: string, checksum: string): Promise<boolean> {
    const [row] = await sql.query(`SELECT 1 FROM releases.artifact_bundles WHERE organization_id = $1 AND checksum = $2`, [organizationId, checksum]);
    return row !== undefined;
  }

  /** Stores a bundle and its files; each distinct file's bytes once per organization. */
  async saveBundle(
    sql: Sql,
    bundle: { organizationId: string; checksum: string; release: string | null; dist: string | null; projectIds: readonly string[]; now: Date },
    files: ReadonlyArray<BundleFile & { checksum: string }>,
  ): Promise<void> {
    const [inserted] = await sql.query<{ id: string }>(
      `INSERT INTO releases.artifact_bundles (organization_id, checksum, release, dist, file_count, date_added) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (organization_id, checksum) DO NOTHING RETURNING id::text`,
      [bundle.organizationId, bundle.checksum, bundle.release, bundle.dist, files.length, bundle.now],
    );
    if (!inserted) return;
    await sql.execute(`INSERT INTO releases.artifact_bundle_projects (bundle_id, project_id) SELECT $1, unnest($2::bigint[]) ON CONFLICT DO NOTHING`, [inserted.id, bundle.projectIds]);
    for (const file of files) {
      await sql.execute(
        `INSERT INTO releases.files (organization_id, checksum, size, content) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
        [bundle.organizationId, file.checksum, file.content.length, file.content],
      );
    }
    await sql.execute(
      `INSERT INTO releases.artifacts (bundle_id, organization_id, path, url, type, debug_id, sourcemap, file_checksum)
       SELECT $1, $2, f.path, f.url, f.type, f.debug_id::uuid, f.sourcemap, f.checksum
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[]) AS f (path, url, type, debug_id, sourcemap, checksum)
       ON CONFLICT DO NOTHING`,
      [
        inserted.id, bundle.organizationId, files.map((f) => f.path), files.map((f) => f.url), files.map((f) => f.type), files.map((f) => f.debugId),
        files.map((f) => f.sourcemap), files.map((f) => f.checksum),
      ],
    );
  }

  /** The newest source map of the project with this debug ID. */
  async sourceMapByDebugId(sql: Sql, organizationId: string, projectId: string, debugId: string): Promise<ArtifactMatch | null> {
    const [row] = await sql.query<ArtifactMatch>(
      `SELECT a.url, a.debug_id::text, a.sourcemap, a.file_checksum, a.bundle_id::text FROM releases.artifacts a
       JOIN releases.artifact_bundle_projects p ON p.bundle_id = a.bundle_id AND p.project_id = $2
       WHERE a.organization_id = $1 AND a.debug_id = $3::uuid AND a.type = 'source_map'
       ORDER BY a.bundle_id DESC LIMIT 1`,
      [organizationId, projectId, debugId],
    );
    return row ?? null;
  }

  /** The project's artifacts of this release (and dist) under any of these URLs, newest bundle first. */
  async byReleaseUrls(sql: Sql, organizationId: string, projectId: string, release: string, dist: string | null, urls: readonly string[]): Promise<Array<ArtifactMatch & { type: string }>> {
    return sql.query(
      `SELECT a.url, a.type, a.debug_id::text, a.sourcemap, a.file_checksum, a.bundle_id::text FROM releases.artifacts a
       JOIN releases.artifact_bundles b ON b.id = a.bundle_id AND b.release = $3 AND b.dist IS NOT DISTINCT FROM $4
       JOIN releases.artifact_bundle_projects p ON p.bundle_id = a.bundle_id AND p.project_id = $2
       WHERE a.organization_id = $1 AND a.url = ANY($5::text[])
       ORDER BY a.bundle_id DESC LIMIT 50`,
      [organizationId, projectId, release, dist, urls],
    );
  }

  async fileContent(sql: Sql, organizationId: string, checksum: string): Promise<Buffer | null> {
    const [row] = await sql.query<{ content: Buffer }>(`SELECT content FROM releases.files WHERE organization_id = $1 AND checksum = $2`, [organizationId, checksum]);
    return row?.content ?? null;
  }

  async releaseHasArtifacts(sql: Sql, organizationId: string, projectId: string, release: string, dist: string | null): Promise<boolean> {
    const [row] = await sql.query(
      `SELECT 1 FROM releases.artifact_bundles b JOIN releases.artifact_bundle_projects p ON p.bundle_id = b.id AND p.project_id = $2
       WHERE b.organization_id = $1 AND b.release = $3 AND b.dist IS NOT DISTINCT FROM $4 LIMIT 1`,
      [organizationId, projectId, release, dist],
    );
    return row !== undefined;
  }
}
