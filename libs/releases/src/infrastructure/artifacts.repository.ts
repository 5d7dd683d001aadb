import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Sql } from '@faultline/platform';
import { bundleIdOf } from '../domain/bundle-manifest';
import type { BundleFile } from './artifact-bundle-reader';

export interface ArtifactBundleRow {
  bundle_id: string;
  release: string | null;
  dist: string | null;
  date_added: Date;
  file_count: number;
  size: number;
}

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

  /** Stores the chunks (a known one is only touched); answers the bytes newly stored. */
  async saveChunks(sql: Sql, organizationId: string, chunks: ReadonlyArray<{ checksum: string; content: Buffer }>, now: Date): Promise<number> {
    let stored = 0;
    for (const chunk of chunks) {
      const [row] = await sql.query<{ inserted: boolean }>(
        `INSERT INTO releases.chunks (organization_id, checksum, content, uploaded_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (organization_id, checksum) DO UPDATE SET uploaded_at = EXCLUDED.uploaded_at RETURNING (xmax = 0) AS inserted`,
        [organizationId, chunk.checksum, chunk.content, now],
      );
      if (row.inserted) stored += chunk.content.length;
    }
    return stored;
  }

  /** Drops chunks of every organization left unassembled for a day; answers the bytes freed per organization, in id order. */
  async dropAbandonedChunks(sql: Sql, now: Date): Promise<Array<{ organizationId: string; bytes: number }>> {
    const rows = await sql.query<{ organization_id: string; bytes: string }>(
      `WITH gone AS (DELETE FROM releases.chunks WHERE uploaded_at < $1 RETURNING organization_id, octet_length(content) AS bytes)
       SELECT organization_id::text, sum(bytes)::text AS bytes FROM gone GROUP BY organization_id ORDER BY organization_id`,
      [new Date(now.getTime() - ABANDONED_CHUNK_MS)],
    );
    return rows.map((row) => ({ organizationId: row.organization_id, bytes: Number(row.bytes) }));
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

  /** Answers the bytes freed. */
  async dropChunks(sql: Sql, organizationId: string, checksums: readonly string[]): Promise<number> {
    const [row] = await sql.query<{ bytes: string | null }>(
      `WITH gone AS (DELETE FROM releases.chunks WHERE organization_id = $1 AND checksum = ANY($2::text[]) RETURNING octet_length(content) AS bytes)
       SELECT sum(bytes)::text AS bytes FROM gone`,
      [organizationId, checksums],
    );
    return Number(row?.bytes ?? 0);
  }

  /** Stores a bundle and its files; each distinct file's bytes once per organization. Answers the bytes newly stored. */
  async saveBundle(
    sql: Sql,
    bundle: {
      organizationId: string;
      checksum: string;
      bundleId: string;
      release: string | null;
      dist: string | null;
      projectIds: readonly string[];
      now: Date;
    },
    files: ReadonlyArray<BundleFile & { checksum: string }>,
  ): Promise<number> {
    const [inserted] = await sql.query<{ id: string }>(
      `INSERT INTO releases.artifact_bundles (organization_id, checksum, bundle_id, release, dist, file_count, date_added) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (organization_id, checksum, release, dist) DO NOTHING RETURNING id::text`,
      [bundle.organizationId, bundle.checksum, bundle.bundleId, bundle.release, bundle.dist, files.length, bundle.now],
    );
    if (!inserted) return 0;
    await sql.execute(`INSERT INTO releases.artifact_bundle_projects (bundle_id, project_id) SELECT $1, unnest($2::bigint[]) ON CONFLICT DO NOTHING`, [
      inserted.id,
      bundle.projectIds,
    ]);
    const stored = await this.storeFiles(sql, bundle.organizationId, files);
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
    return stored;
  }

  /** Stores file bytes not stored yet (by checksum, per organization); answers the bytes newly stored. */
  async storeFiles(sql: Sql, organizationId: string, files: ReadonlyArray<{ checksum: string; content: Buffer }>): Promise<number> {
    let stored = 0;
    for (const file of files) {
      const inserted = await sql.execute(
        `INSERT INTO releases.files (organization_id, checksum, size, content) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
        [organizationId, file.checksum, file.content.length, file.content],
      );
      if (inserted > 0) stored += file.content.length;
    }
    return stored;
  }

  /** One bundle row of this checksum (all hold the same files), the first stored. */
  async findBundle(sql: Sql, organizationId: string, checksum: string): Promise<string | null> {
    const [row] = await sql.query<{ id: string }>(
      `SELECT id::text FROM releases.artifact_bundles WHERE organization_id = $1 AND checksum = $2 ORDER BY id LIMIT 1`,
      [organizationId, checksum],
    );
    return row?.id ?? null;
  }

  /**
   * Attaches a stored bundle to a release and dist (a row sharing its files, as Sentry's release
   * bundles do) and to projects; doing it again changes nothing. Answers whether anything changed.
   */
  async attachBundle(
    sql: Sql,
    bundleId: string,
    target: { release: string | null; dist: string | null; projectIds: readonly string[]; now: Date },
  ): Promise<boolean> {
    const [added] = await sql.query<{ id: string }>(
      `INSERT INTO releases.artifact_bundles (organization_id, checksum, bundle_id, release, dist, file_count, date_added)
       SELECT organization_id, checksum, bundle_id, $2, $3, file_count, $4 FROM releases.artifact_bundles WHERE id = $1
       ON CONFLICT (organization_id, checksum, release, dist) DO NOTHING RETURNING id::text`,
      [bundleId, target.release, target.dist, target.now],
    );
    if (added)
      await sql.execute(
        `INSERT INTO releases.artifacts (bundle_id, organization_id, path, url, type, debug_id, sourcemap, file_checksum, date_added)
         SELECT $2, organization_id, path, url, type, debug_id, sourcemap, file_checksum, $3 FROM releases.artifacts WHERE bundle_id = $1`,
        [bundleId, added.id, target.now],
      );
    const projectsAdded = await sql.execute(
      `INSERT INTO releases.artifact_bundle_projects (bundle_id, project_id)
       SELECT b.id, unnest($4::bigint[]) FROM releases.artifact_bundles s JOIN releases.artifact_bundles b ON b.organization_id = s.organization_id
         AND b.checksum = s.checksum AND b.release IS NOT DISTINCT FROM $2 AND b.dist IS NOT DISTINCT FROM $3
       WHERE s.id = $1 ON CONFLICT DO NOTHING`,
      [bundleId, target.release, target.dist, target.projectIds],
    );
    return added !== undefined || projectsAdded > 0;
  }

  /** Deletes the artifacts of a release (its files and the bundles attached to it); answers the checksums of the files they used. */
  async deleteReleaseArtifacts(sql: Sql, organizationId: string, release: string): Promise<string[]> {
    const rows = await sql.query<{ file_checksum: string }>(
      `DELETE FROM releases.artifacts a USING releases.artifact_bundles b
       WHERE b.id = a.bundle_id AND b.organization_id = $1 AND b.release = $2 RETURNING a.file_checksum`,
      [organizationId, release],
    );
    await sql.execute(`DELETE FROM releases.artifact_bundles WHERE organization_id = $1 AND release = $2`, [organizationId, release]);
    return [...new Set(rows.map((row) => row.file_checksum))];
  }

  /** Deletes those of these files no artifact uses any more; answers the bytes freed. */
  async dropUnusedFiles(sql: Sql, organizationId: string, checksums: readonly string[]): Promise<number> {
    if (checksums.length === 0) return 0;
    const [row] = await sql.query<{ bytes: string | null }>(
      `WITH gone AS (
         DELETE FROM releases.files f WHERE f.organization_id = $1 AND f.checksum = ANY($2::text[])
           AND NOT EXISTS (SELECT 1 FROM releases.artifacts a WHERE a.organization_id = f.organization_id AND a.file_checksum = f.checksum)
         RETURNING f.size)
       SELECT sum(size)::text AS bytes FROM gone`,
      [organizationId, checksums],
    );
    return Number(row?.bytes ?? 0);
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
      `INSERT INTO releases.artifact_bundles (organization_id, checksum, bundle_id, release, dist, file_count, date_added) VALUES ($1, $2, $3, $4, $5, 0, $6)
       ON CONFLICT (organization_id, checksum, release, dist) DO NOTHING`,
      [organizationId, checksum, bundleIdOf(null, checksum), release, dist, now],
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

  /** Adds a file (its bytes stored with storeFiles) to a release's files; null when one of that name is there already. */
  async addReleaseFile(
    sql: Sql,
    organizationId: string,
    bundleId: string,
    file: { name: string; dist: string | null; type: string; sourcemap: string | null; checksum: string; content: Buffer },
    now: Date,
  ): Promise<ReleaseFileRow | null> {
    const [row] = await sql.query<ReleaseFileRow>(
      `INSERT INTO releases.artifacts (bundle_id, organization_id, path, url, type, sourcemap, file_checksum, date_added) VALUES ($1, $2, $3, $3, $4, $5, $6, $7)
       ON CONFLICT (bundle_id, path) DO NOTHING
       RETURNING id::text, url AS name, sourcemap, file_checksum AS sha1, $8::int AS size, date_added, $9::text AS dist`,
      [bundleId, organizationId, file.name, file.type, file.sourcemap, file.checksum, now, file.content.length, file.dist],
    );
    if (row) await sql.execute(`UPDATE releases.artifact_bundles SET file_count = file_count + 1 WHERE id = $1`, [bundleId]);
    return row ?? null;
  }

  /**
   * The project's artifact bundles, newest first: those of exactly `release`, or whose release or
   * bundle id contains `query` (Sentry's search). Counts and sizes come from the bundle's files.
   * Files uploaded one by one (the legacy release files) are not bundles here, as in Sentry.
   */
  async listProjectBundles(
    sql: Sql,
    organizationId: string,
    projectId: string,
    filter: { release?: string; query?: string },
    offset: number,
    limit: number,
  ): Promise<ArtifactBundleRow[]> {
    return sql.query<ArtifactBundleRow>(
      `SELECT b.bundle_id::text AS bundle_id, b.release, b.dist, b.date_added,
              (SELECT count(*)::int FROM releases.artifacts a WHERE a.bundle_id = b.id) AS file_count,
              (SELECT COALESCE(sum(f.size), 0)::float8 FROM releases.artifacts a
                 JOIN releases.files f ON f.organization_id = a.organization_id AND f.checksum = a.file_checksum
               WHERE a.bundle_id = b.id) AS size
       FROM releases.artifact_bundles b JOIN releases.artifact_bundle_projects p ON p.bundle_id = b.id AND p.project_id = $2
       WHERE b.organization_id = $1 AND b.checksum NOT LIKE 'release-files:%'
         AND ($3::text IS NULL OR b.release = $3)
         AND ($4::text IS NULL OR strpos(lower(COALESCE(b.release, '')), lower($4)) > 0 OR strpos(b.bundle_id::text, lower($4)) > 0)
       ORDER BY b.date_added DESC, b.id DESC OFFSET $5 LIMIT $6`,
      [organizationId, projectId, filter.release ?? null, filter.query ?? null, offset, limit],
    );
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

  /** Answers the checksum of the file it used, if it was there. */
  async deleteReleaseFile(sql: Sql, organizationId: string, fileId: string): Promise<string | null> {
    const [row] = await sql.query<{ file_checksum: string }>(`DELETE FROM releases.artifacts WHERE organization_id = $1 AND id = $2 RETURNING file_checksum`, [
      organizationId,
      fileId,
    ]);
    return row?.file_checksum ?? null;
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
