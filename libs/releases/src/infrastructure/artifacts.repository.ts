import { createHash } from 'node:crypto';
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
    await sql.execute(`INSERT INTO releases.artifact_bundle_projects (bundle_id, project_id) SELECT $1, unnest($2::bigint[]) ON CONFLICT DO NOTHING`, [
      inserted.id,
      bundle.projectIds,
    ]);
    for (const file of files) {
      await sql.execute(`INSERT INTO releases.files (organization_id, checksum, size, content) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`, [
        bundle.organizationId,
        file.checksum,
        file.content.length,
        file.content,
      ]);
    }
    await sql.execute(
      `INSERT INTO releases.artifacts (bundle_id, organization_id, path, url, type, debug_id, sourcemap, file_checksum, date_added)
       SELECT $1, $2, f.path, f.url, f.type, f.debug_id::uuid, f.sourcemap, f.checksum, $9
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[]) AS f (path, url, type, debug_id, sourcemap, checksum)
       ON CONFLICT DO NOTHING`,
      [
        inserted.id,
        bundle.organizationId,
        files.map((f) => f.path),
        files.map((f) => f.url),
        files.map((f) => f.type),
        files.map((f) => f.debugId),
        files.map((f) => f.sourcemap),
        files.map((f) => f.checksum),
        bundle.now,
      ],
    );
  }

  /** Whether the organization ever uploaded a file: most never do, and their events need no other lookup. */
  async organizationHasArtifacts(sql: Sql, organizationId: string): Promise<boolean> {
    const [row] = await sql.query(`SELECT 1 FROM releases.artifacts WHERE organization_id = $1 LIMIT 1`, [organizationId]);
    return row !== undefined;
  }

  /** The newest source map of the project with each of these debug IDs. */
  async sourceMapsByDebugIds(sql: Sql, organizationId: string, projectId: string, debugIds: readonly string[]): Promise<ArtifactMatch[]> {
    return sql.query<ArtifactMatch>(
      `SELECT DISTINCT ON (a.debug_id) a.url, a.debug_id::text, a.sourcemap, a.file_checksum, a.bundle_id::text FROM releases.artifacts a
       JOIN releases.artifact_bundle_projects p ON p.bundle_id = a.bundle_id AND p.project_id = $2
       WHERE a.organization_id = $1 AND a.debug_id = ANY($3::uuid[]) AND a.type = 'source_map'
       ORDER BY a.debug_id, a.bundle_id DESC`,
      [organizationId, projectId, debugIds],
    );
  }

  /** The project's newest artifact of each type of this release (and dist) under each of these URLs. */
  async byReleaseUrls(
    sql: Sql,
    organizationId: string,
    projectId: string,
    release: string,
    dist: string | null,
    urls: readonly string[],
  ): Promise<Array<ArtifactMatch & { type: string }>> {
    return sql.query(
      `SELECT DISTINCT ON (a.url, a.type) a.url, a.type, a.debug_id::text, a.sourcemap, a.file_checksum, a.bundle_id::text FROM releases.artifacts a
       JOIN releases.artifact_bundles b ON b.id = a.bundle_id AND b.release = $3 AND b.dist IS NOT DISTINCT FROM $4
       JOIN releases.artifact_bundle_projects p ON p.bundle_id = a.bundle_id AND p.project_id = $2
       WHERE a.organization_id = $1 AND a.url = ANY($5::text[])
       ORDER BY a.url, a.type, a.bundle_id DESC`,
      [organizationId, projectId, release, dist, urls],
    );
  }

  /**
   * The files' bytes, in the order given, while their sizes add up to at most `maxBytes`; a file
   * past that (or missing) answers null, and its bytes are never read.
   */
  async fileContents(sql: Sql, organizationId: string, checksums: readonly string[], maxBytes: number): Promise<Map<string, Buffer | null>> {
    const rows = await sql.query<{ checksum: string; content: Buffer | null }>(
      `SELECT checksum, CASE WHEN within THEN content END AS content FROM (
         SELECT f.checksum, f.content, sum(f.size) OVER (ORDER BY w.ord) <= $3 AS within
         FROM unnest($2::text[]) WITH ORDINALITY AS w (checksum, ord)
         JOIN releases.files f ON f.organization_id = $1 AND f.checksum = w.checksum
       ) AS sized`,
      [organizationId, checksums, maxBytes],
    );
    const found = new Map(rows.map((row) => [row.checksum, row.content]));
    return new Map(checksums.map((checksum) => [checksum, found.get(checksum) ?? null]));
  }

  async releaseHasArtifacts(sql: Sql, organizationId: string, projectId: string, release: string, dist: string | null): Promise<boolean> {
    const [row] = await sql.query(
      `SELECT 1 FROM releases.artifact_bundles b JOIN releases.artifact_bundle_projects p ON p.bundle_id = b.id AND p.project_id = $2
       WHERE b.organization_id = $1 AND b.release = $3 AND b.dist IS NOT DISTINCT FROM $4 LIMIT 1`,
      [organizationId, projectId, release, dist],
    );
    return row !== undefined;
  }

  /** The bundle holding a release's individually uploaded files (for this dist), created when first needed. */
  async releaseFilesBundle(sql: Sql, organizationId: string, release: string, dist: string | null, projectIds: readonly string[], now: Date): Promise<string> {
    const checksum = releaseFilesChecksum(release, dist);
    await sql.execute(
      `INSERT INTO releases.artifact_bundles (organization_id, checksum, release, dist, file_count, date_added) VALUES ($1, $2, $3, $4, 0, $5)
       ON CONFLICT (organization_id, checksum) DO NOTHING`,
      [organizationId, checksum, release, dist, now],
    );
    const [{ id }] = await sql.query<{ id: string }>(`SELECT id::text FROM releases.artifact_bundles WHERE organization_id = $1 AND checksum = $2`, [
      organizationId,
      checksum,
    ]);
    await sql.execute(`INSERT INTO releases.artifact_bundle_projects (bundle_id, project_id) SELECT $1, unnest($2::bigint[]) ON CONFLICT DO NOTHING`, [
      id,
      projectIds,
    ]);
    return id;
  }

  /** Adds a file to a release's files; null when one of that name is there already. */
  async addReleaseFile(
    sql: Sql,
    organizationId: string,
    bundleId: string,
    file: { name: string; dist: string | null; type: string; sourcemap: string | null; checksum: string; content: Buffer },
    now: Date,
  ): Promise<ReleaseFileRow | null> {
    await sql.execute(`INSERT INTO releases.files (organization_id, checksum, size, content) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`, [
      organizationId,
      file.checksum,
      file.content.length,
      file.content,
    ]);
    const [row] = await sql.query<ReleaseFileRow>(
      `INSERT INTO releases.artifacts (bundle_id, organization_id, path, url, type, sourcemap, file_checksum, date_added) VALUES ($1, $2, $3, $3, $4, $5, $6, $7)
       ON CONFLICT (bundle_id, path) DO NOTHING
       RETURNING id::text, url AS name, sourcemap, file_checksum AS sha1, $8::int AS size, date_added, $9::text AS dist`,
      [bundleId, organizationId, file.name, file.type, file.sourcemap, file.checksum, now, file.content.length, file.dist],
    );
    if (row) await sql.execute(`UPDATE releases.artifact_bundles SET file_count = file_count + 1 WHERE id = $1`, [bundleId]);
    return row ?? null;
  }

  /** A release's files: those uploaded one by one and those of the bundles uploaded for it. */
  async listReleaseFiles(sql: Sql, organizationId: string, release: string, offset: number, limit: number): Promise<ReleaseFileRow[]> {
    return sql.query<ReleaseFileRow>(
      `SELECT a.id::text, COALESCE(a.url, a.path) AS name, a.sourcemap, a.file_checksum AS sha1, f.size, a.date_added, b.dist
       FROM releases.artifacts a JOIN releases.artifact_bundles b ON b.id = a.bundle_id
       JOIN releases.files f ON f.organization_id = a.organization_id AND f.checksum = a.file_checksum
       WHERE a.organization_id = $1 AND b.release = $2 ORDER BY a.id OFFSET $3 LIMIT $4`,
      [organizationId, release, offset, limit],
    );
  }

  async findReleaseFile(sql: Sql, organizationId: string, release: string, fileId: string): Promise<(ReleaseFileRow & { bundle_id: string }) | null> {
    const [row] = await sql.query<ReleaseFileRow & { bundle_id: string }>(
      `SELECT a.id::text, a.bundle_id::text, COALESCE(a.url, a.path) AS name, a.sourcemap, a.file_checksum AS sha1, f.size, a.date_added, b.dist
       FROM releases.artifacts a JOIN releases.artifact_bundles b ON b.id = a.bundle_id
       JOIN releases.files f ON f.organization_id = a.organization_id AND f.checksum = a.file_checksum
       WHERE a.organization_id = $1 AND b.release = $2 AND a.id = $3`,
      [organizationId, release, fileId],
    );
    return row ?? null;
  }

  async deleteReleaseFile(sql: Sql, organizationId: string, fileId: string): Promise<void> {
    await sql.execute(`DELETE FROM releases.artifacts WHERE organization_id = $1 AND id = $2`, [organizationId, fileId]);
  }
}

export interface ReleaseFileRow {
  id: string;
  name: string;
  sourcemap: string | null;
  sha1: string;
  size: number;
  date_added: Date;
  dist: string | null;
}

export function releaseFilesChecksum(release: string, dist: string | null): string {
  return `release-files:${createHash('sha1')
    .update(JSON.stringify([release, dist]))
    .digest('hex')}`;
}
