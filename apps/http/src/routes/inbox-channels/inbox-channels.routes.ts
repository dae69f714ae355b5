import { createRoute } from '@hono/zod-openapi';
import { dataEnvelope, errorResponses, jsonBody, jsonContent } from '../../platform/schemas';
import {
  ConnectionModeQuerySchema,
  CreateInboxConnectionSchema,
  CreateInboxEndpointSchema,
  IdentifierParams,
  InboxChannelListQuerySchema,
  InboxConnectionPageSchema,
  InboxConnectionSchema,
  InboxEndpointPageSchema,
  InboxEndpointSchema,
  OAuthRequestSchema,
} from './inbox-channels.schemas';

const tags = ['Subscriber inbox'];
const security = [{ SubscriberToken: [] }];
const CONNECTIONS = '/v1/inbox/channel-connections';
const ENDPOINTS = '/v1/inbox/channel-endpoints';

export const listConnections = createRoute({
  method: 'get',
  path: CONNECTIONS,
  tags,
  security,
  summary: "The session subscriber's chat connections (connectionMode=shared: the environment's shared ones)",
  request: { query: InboxChannelListQuerySchema },
  responses: { 200: jsonContent(InboxConnectionPageSchema, 'A page of connections'), ...errorResponses },
});

export const getConnection = createRoute({
  method: 'get',
  path: `${CONNECTIONS}/{identifier}`,
  tags,
  security,
  summary: "One of the subscriber's connections, or a shared one",
  request: { params: IdentifierParams, query: ConnectionModeQuerySchema },
  responses: { 200: jsonContent(dataEnvelope(InboxConnectionSchema), 'The connection'), ...errorResponses },
});

export const createConnection = createRoute({
  method: 'post',
  path: CONNECTIONS,
  tags,
  security,
  summary: 'Connect the subscriber to a chat workspace with an access token the application obtained',
  request: jsonBody(CreateInboxConnectionSchema),
  responses: { 201: jsonContent(dataEnvelope(InboxConnectionSchema), 'The connection'), ...errorResponses },
});

export const deleteConnection = createRoute({
  method: 'delete',
  path: `${CONNECTIONS}/{identifier}`,
  tags,
  security,
  summary: "Remove one of the subscriber's own connections",
  request: { params: IdentifierParams },
  responses: { 204: { description: 'Removed' }, ...errorResponses },
});

export const listEndpoints = createRoute({
  method: 'get',
  path: ENDPOINTS,
  tags,
  security,
  summary: "The session subscriber's channel endpoints",
  request: { query: InboxChannelListQuerySchema },
  responses: { 200: jsonContent(InboxEndpointPageSchema, 'A page of endpoints'), ...errorResponses },
});

export const getEndpoint = createRoute({
  method: 'get',
  path: `${ENDPOINTS}/{identifier}`,
  tags,
  security,
  summary: "One of the subscriber's endpoints",
  request: { params: IdentifierParams },
  responses: { 200: jsonContent(dataEnvelope(InboxEndpointSchema), 'The endpoint'), ...errorResponses },
});

export const createEndpoint = createRoute({
  method: 'post',
  path: ENDPOINTS,
  tags,
  security,
  summary: 'Add a destination of the subscriber (a Slack user or channel, a webhook, a phone...)',
  request: jsonBody(CreateInboxEndpointSchema),
  responses: { 201: jsonContent(dataEnvelope(InboxEndpointSchema), 'The endpoint'), ...errorResponses },
});

export const deleteEndpoint = createRoute({
  method: 'delete',
  path: `${ENDPOINTS}/{identifier}`,
  tags,
  security,
  summary: "Remove one of the subscriber's endpoints",
  request: { params: IdentifierParams },
  responses: { 204: { description: 'Removed' }, ...errorResponses },
});

/** Provider OAuth and deep-link issuing: answered with a 400 that says how to connect instead. */
export const OAUTH_PATHS = ['/v1/inbox/chat/oauth', `${CONNECTIONS}/oauth`, `${ENDPOINTS}/oauth`, `${ENDPOINTS}/link`] as const;

export const oauth = (path: (typeof OAUTH_PATHS)[number]) =>
  createRoute({
    method: 'post',
    path,
    tags,
    security,
    summary: 'Not offered: Herald runs no provider OAuth; the answer says how to connect with a token',
    request: jsonBody(OAuthRequestSchema),
    responses: { ...errorResponses },
  });
