import { GROUP_SCHEMA, MAX_PAGE_SIZE, USER_SCHEMA } from './scim-schemas';

type Json = Record<string, unknown>;

/** RFC 7643 §7 attribute definition. */
function attribute(name: string, type: string, options: Json = {}): Json {
  return {
    name,
    type,
    multiValued: false,
    required: false,
    caseExact: false,
    mutability: 'readWrite',
    returned: 'default',
    uniqueness: 'none',
    ...options,
  };
}

const NAME_SUB_ATTRIBUTES = ['formatted', 'familyName', 'givenName', 'middleName', 'honorificPrefix', 'honorificSuffix'].map((name) =>
  attribute(name, 'string'),
);

export const USER_SCHEMA_DEFINITION: Json = {
  id: USER_SCHEMA,
  name: 'User',
  description: 'An organization member',
  attributes: [
    attribute('userName', 'string', { required: true, uniqueness: 'server', description: "The member's e-mail address; compared without case" }),
    attribute('name', 'complex', { subAttributes: NAME_SUB_ATTRIBUTES }),
    attribute('displayName', 'string'),
    attribute('emails', 'complex', {
      multiValued: true,
      subAttributes: [
        attribute('value', 'string'),
        attribute('type', 'string', { canonicalValues: ['work', 'home', 'other'] }),
        attribute('primary', 'boolean'),
      ],
    }),
    attribute('active', 'boolean', { description: 'false keeps the member but takes away all access' }),
    attribute('groups', 'complex', {
      multiValued: true,
      mutability: 'readOnly',
      subAttributes: [attribute('value', 'string', { mutability: 'readOnly' }), attribute('display', 'string', { mutability: 'readOnly' })],
    }),
    attribute('sentryOrgRole', 'string', { canonicalValues: ['billing', 'member', 'manager', 'admin'], description: 'The organization role' }),
  ],
  meta: { resourceType: 'Schema' },
};

export const GROUP_SCHEMA_DEFINITION: Json = {
  id: GROUP_SCHEMA,
  name: 'Group',
  description: 'An organization team',
  attributes: [
    attribute('displayName', 'string', { required: true, uniqueness: 'server', description: "The team's name; its slug derives from it" }),
    attribute('members', 'complex', {
      multiValued: true,
      subAttributes: [attribute('value', 'string', { mutability: 'immutable' }), attribute('display', 'string', { mutability: 'readOnly' })],
    }),
  ],
  meta: { resourceType: 'Schema' },
};

export function serviceProviderConfig(documentationUri: string): Json {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    documentationUri,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_PAGE_SIZE },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'OAuth Bearer Token',
        description: "The SCIM token issued when SCIM is enabled on the organization's SAML provider",
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig' },
  };
}

export const RESOURCE_TYPES: Json[] = [
  {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    description: 'Organization members',
    schema: USER_SCHEMA,
    schemaExtensions: [],
    meta: { resourceType: 'ResourceType' },
  },
  {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
    id: 'Group',
    name: 'Group',
    endpoint: '/Groups',
    description: 'Organization teams',
    schema: GROUP_SCHEMA,
    schemaExtensions: [],
    meta: { resourceType: 'ResourceType' },
  },
];
