import { domainEvent } from '@faultline/kernel';

export const ProjectEventTypes = {
  ProjectCreated: 'projects.ProjectCreated',
  ProjectUpdated: 'projects.ProjectUpdated',
  ProjectDeleted: 'projects.ProjectDeleted',
  ProjectTeamAdded: 'projects.ProjectTeamAdded',
  ProjectTeamRemoved: 'projects.ProjectTeamRemoved',
  ProjectKeyCreated: 'projects.ProjectKeyCreated',
  ProjectKeyUpdated: 'projects.ProjectKeyUpdated',
  ProjectKeyDeleted: 'projects.ProjectKeyDeleted',
  ProjectOwnershipUpdated: 'projects.ProjectOwnershipUpdated',
  ProjectTransferRequested: 'projects.ProjectTransferRequested',
  ProjectTransferred: 'projects.ProjectTransferred',
} as const;

export const projectStream = (projectId: string): string => `project-${projectId}`;
export const PROJECT_STREAM_TYPE = 'project';

export const projectCreated = (data: { projectId: string; organizationId: string; teamId: string; slug: string; name: string; platform: string | null }) =>
  domainEvent(ProjectEventTypes.ProjectCreated, data);

export const projectUpdated = (data: { projectId: string; organizationId: string; changes: Record<string, unknown> }) =>
  domainEvent(ProjectEventTypes.ProjectUpdated, data);

export const projectDeleted = (data: { projectId: string; organizationId: string; slug: string }) => domainEvent(ProjectEventTypes.ProjectDeleted, data);

export const projectKeyCreated = (data: { projectId: string; publicKey: string; label: string }) => domainEvent(ProjectEventTypes.ProjectKeyCreated, data);

export const projectKeyUpdated = (data: { projectId: string; publicKey: string; changes: Record<string, unknown> }) =>
  domainEvent(ProjectEventTypes.ProjectKeyUpdated, data);

export const projectKeyDeleted = (data: { projectId: string; publicKey: string }) => domainEvent(ProjectEventTypes.ProjectKeyDeleted, data);

export const projectTeamAdded = (data: { projectId: string; organizationId: string; teamId: string }) => domainEvent(ProjectEventTypes.ProjectTeamAdded, data);

export const projectTeamRemoved = (data: { projectId: string; organizationId: string; teamId: string }) =>
  domainEvent(ProjectEventTypes.ProjectTeamRemoved, data);

/** The ownership rules or their options changed: the fields that did, with their new values. */
export const projectOwnershipUpdated = (data: { projectId: string; organizationId: string; changes: Record<string, unknown> }) =>
  domainEvent(ProjectEventTypes.ProjectOwnershipUpdated, data);
/** A transfer link went to an owner of another organization (the link itself is never recorded). */
export const projectTransferRequested = (data: { projectId: string; organizationId: string; transferId: string; recipientUserId: string; expiresAt: string }) =>
  domainEvent(ProjectEventTypes.ProjectTransferRequested, data);

/** The project moved to another organization; its teams were detached, its keys keep working. */
export const projectTransferred = (data: {
  projectId: string;
  slug: string;
  fromOrganizationId: string;
  toOrganizationId: string;
  transferId: string;
  publicKeys: string[];
}) => domainEvent(ProjectEventTypes.ProjectTransferred, data);
