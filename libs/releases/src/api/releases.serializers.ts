import type { ProjectSummary } from '@faultline/projects';
import type { ReleaseHealthData } from '../domain/release-health';
import { versionInfo } from '../domain/release-version';
import type { CommitRow, DeployJson, ReleaseRow } from '../infrastructure/releases.repository';

const iso = (value: Date | string | null | undefined): string | null => (value ? new Date(value).toISOString() : null);
const latest = (values: Array<string | null>): string | null =>
  values
    .filter((v): v is string => v !== null)
    .map((v) => new Date(v).toISOString())
    .sort()
    .at(-1) ?? null;
const earliest = (values: Array<string | null>): string | null =>
  values
    .filter((v): v is string => v !== null)
    .map((v) => new Date(v).toISOString())
    .sort()[0] ?? null;

export function serializeDeploy(deploy: DeployJson) {
  return {
    id: deploy.id,
    environment: deploy.environment,
    name: deploy.name,
    url: deploy.url,
    dateStarted: iso(deploy.date_started),
    dateFinished: iso(deploy.date_finished),
  };
}

export function serializeCommit(commit: CommitRow) {
  return {
    id: commit.id,
    message: commit.message,
    dateCreated: iso(commit.date_created),
    repository: commit.repository ? { name: commit.repository } : null,
    author: commit.author_email ? { name: commit.author_name, email: commit.author_email } : null,
  };
}

/**
 * A release as Sentry's release serializer shows it; `projects` are those of the release the
 * caller's organization holds. `health` gives each project's health data (Sentry's `health=1`);
 * without it `hasHealthData` still says whether sessions were seen.
 */
export function serializeRelease(
  row: ReleaseRow,
  projects: ReadonlyMap<string, ProjectSummary>,
  health: (projectId: string) => { data: ReleaseHealthData; included: boolean },
) {
  const info = versionInfo(row.version);
  const known = row.projects.filter((p) => projects.has(p.project_id));
  return {
    id: Number(row.id),
    version: row.version,
    status: row.status,
    shortVersion: info.description,
    versionInfo: info,
    ref: row.ref,
    url: row.url,
    dateReleased: iso(row.date_released),
    dateCreated: iso(row.date_created),
    dateStarted: iso(row.date_started),
    data: {},
    newGroups: known.reduce((sum, p) => sum + p.new_groups, 0),
    /** Faultline's own: the events stored for the release (Sentry counts them in its event search). */
    eventCount: known.reduce((sum, p) => sum + Number(p.events), 0),
    owner: null,
    commitCount: row.commit_count,
    lastCommit: row.last_commit
      ? {
          id: row.last_commit.id,
          message: row.last_commit.message,
          dateCreated: iso(row.last_commit.date_created),
          repository: row.last_commit.repository ? { name: row.last_commit.repository } : null,
          author: row.last_commit.author_email ? { name: row.last_commit.author_name, email: row.last_commit.author_email } : null,
        }
      : null,
    deployCount: row.deploy_count,
    lastDeploy: row.last_deploy ? serializeDeploy(row.last_deploy) : null,
    authors: [],
    projects: known.map((p) => {
      const project = projects.get(p.project_id) as ProjectSummary;
      const { data, included } = health(p.project_id);
      return {
        id: Number(project.id),
        slug: project.slug,
        name: project.name,
        newGroups: p.new_groups,
        eventCount: Number(p.events),
        platform: project.platform,
        platforms: project.platform ? [project.platform] : [],
        hasHealthData: data.hasHealthData,
        ...(included ? { healthData: data } : {}),
      };
    }),
    firstEvent: earliest(known.map((p) => p.first_event)),
    lastEvent: latest(known.map((p) => p.last_event)),
    currentProjectMeta: {},
    userAgent: null,
  };
}
