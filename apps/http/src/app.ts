import { AuthenticateApiKey, AuthorizeDashboardRequest, ClaimIdempotencyKey } from '@herald/domain';
import type { Logger } from 'pino';
import type { Resolver } from './platform/app-env';
import { callerAuth, ENVIRONMENT_HEADER } from './platform/caller-auth';
import { RequestOrigins } from './platform/request-origin';
import { SESSION_COOKIE } from './platform/session-cookie';
import { requestBodyLimit } from './platform/body-limit';
import { errorBody, handleError } from './platform/errors';
import { idempotency } from './platform/idempotency';
import { jsonDepthLimit } from './platform/json-depth';
import { notFoundHandler } from './platform/not-found';
import { requestLogging } from './platform/logger';
import { createRouter } from './platform/router';
import { docsRouter } from './routes/docs/docs.index';
import { healthRouter, type HealthProbe } from './routes/health/health.index';
import { subscribersRouter } from './routes/subscribers/subscribers.index';
import { eventsRouter } from './routes/events/events.index';
import { topicsRouter } from './routes/topics/topics.index';
import { topicSubscriptionsRouter } from './routes/topics/topic-subscriptions.index';
import { preferencesRouter } from './routes/preferences/preferences.index';
import { integrationsRouter } from './routes/integrations/integrations.index';
import { outboxRouter } from './routes/outbox/outbox.index';
import { channelConnectionsRouter } from './routes/channel-connections/channel-connections.index';
import { webhooksRouter } from './routes/webhooks/webhooks.index';
import { channelEndpointsRouter } from './routes/channel-endpoints/channel-endpoints.index';
import { workflowsRouter } from './routes/workflows/workflows.index';
import { bridgeRouter } from './routes/bridge/bridge.index';
import { notificationsRouter } from './routes/notifications/notifications.index';
import { inboxRouter } from './routes/inbox/inbox.index';
import { metricsRouter } from './routes/metrics/metrics.index';
import { httpMetrics } from './observability/http-metrics';
import type { HeraldMetrics } from './observability/metrics';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './platform/app-env';
import { subscriberInboxRouter } from './routes/subscriber-inbox/subscriber-inbox.index';
import { inboxTopicsRouter } from './routes/inbox-topics/inbox-topics.index';
import { inboxChannelsRouter } from './routes/inbox-channels/inbox-channels.index';
import { environmentsRouter } from './routes/environments/environments.index';
import { inboxDemoRouter } from './routes/inbox-demo/inbox-demo.index';
import { dashboardAuthRouter } from './routes/dashboard/dashboard-auth.index';
import { dashboardUsersRouter } from './routes/dashboard/dashboard-users.index';
import { apiKeysRouter } from './routes/environments/api-keys.index';
import { overviewRouter } from './routes/overview/overview.index';
import { dashboardAppRouter } from './routes/dashboard-app/dashboard-app.index';
import { receiptsRouter } from './routes/receipts/receipts.index';
import { MAX_RECEIPT_BYTES } from './routes/receipts/receipts.routes';

export const MAX_BODY_BYTES = 512 * 1024;

export interface AppDependencies {
  resolver: Resolver;
  logger: Logger;
  serviceName: string;
  probe: HealthProbe;
  /** Request metrics are recorded when set; `serveMetrics` also serves GET /metrics on this app. */
  metrics?: HeraldMetrics;
  serveMetrics?: boolean;
  /** A span per request, when tracing is on. */
  tracing?: MiddlewareHandler<AppEnv> | null;
  /** Serve the development Inbox demo page. */
  inboxDemo?: boolean;
}

/**
 * The HTTP surface: where every request enters. Routes under /v1 and /v2 need an API key or a
 * dashboard session (with the environment it acts on); the dashboard's own routes check their own.
 */
export function buildApp({ resolver, logger, serviceName, probe, metrics, serveMetrics, tracing, inboxDemo = false }: AppDependencies) {
  const app = createRouter();
  if (tracing) app.use('*', tracing);
  app.use('*', requestLogging(logger));
  if (metrics) app.use('*', httpMetrics(metrics));
  const bodyLimit = (bytes: number) => requestBodyLimit(bytes, (c) => c.json(errorBody(c, 413, `Request body exceeds the ${bytes / 1024} KB limit`), 413));
  const [apiLimit, receiptLimit] = [bodyLimit(MAX_BODY_BYTES), bodyLimit(MAX_RECEIPT_BYTES)];
  // Providers batch receipts beyond the API's limit (SendGrid: up to 768 KB).
  app.use('*', (c, next) => (c.req.path.startsWith('/v1/receipts/') ? receiptLimit(c, next) : apiLimit(c, next)));
  app.route('/', healthRouter(probe));
  if (metrics && serveMetrics) app.route('/', metricsRouter(metrics));
  app.route('/', docsRouter(serviceName));

  // The browser inbox authorises with subscriber tokens, not API keys: mounted before the API-key guard.
  app.route('/', subscriberInboxRouter(resolver));
  // After it: its middleware authenticates every /v1/inbox/* request these routes serve.
  app.route('/', inboxTopicsRouter(resolver));
  app.route('/', inboxChannelsRouter(resolver));
  if (inboxDemo) app.route('/', inboxDemoRouter(resolver, serviceName));

  // Providers' delivery receipts: authorised by each provider's signature, not an API key.
  app.route('/', receiptsRouter(resolver));

  // The dashboard's web app (static files; it calls the API below like any client).
  app.route('/', dashboardAppRouter());
  // The dashboard's sign-in, session and users: mounted before the guard, they authorise themselves.
  app.route('/', dashboardAuthRouter(resolver));
  app.route('/', dashboardUsersRouter(resolver));

  const authenticate = callerAuth({ apiKeys: resolver.get(AuthenticateApiKey), dashboard: resolver.get(AuthorizeDashboardRequest), origins: resolver.get(RequestOrigins) });
  app.use('/v1/*', authenticate);
  app.use('/v2/*', authenticate);
  // Bodies are read and measured only for authenticated callers.
  app.use('/v1/*', jsonDepthLimit());
  app.use('/v2/*', jsonDepthLimit());
  // After authentication: it needs the caller's organization and its idempotency setting.
  const idempotent = idempotency(resolver.get(ClaimIdempotencyKey));
  app.use('/v1/*', idempotent);
  app.use('/v2/*', idempotent);
  app.route('/', subscribersRouter(resolver));
  app.route('/', eventsRouter(resolver));
  app.route('/', topicsRouter(resolver));
  app.route('/', topicSubscriptionsRouter(resolver));
  app.route('/', preferencesRouter(resolver));
  app.route('/', integrationsRouter(resolver));
  app.route('/', outboxRouter(resolver));
  app.route('/', channelConnectionsRouter(resolver));
  app.route('/', channelEndpointsRouter(resolver));
  app.route('/', webhooksRouter(resolver));
  app.route('/', workflowsRouter(resolver, serviceName));
  app.route('/', bridgeRouter(resolver));
  app.route('/', notificationsRouter(resolver));
  app.route('/', inboxRouter(resolver));
  app.route('/', environmentsRouter(resolver));
  app.route('/', apiKeysRouter(resolver));
  app.route('/', overviewRouter(resolver));

  app.openAPIRegistry.registerComponent('securitySchemes', 'ApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'ApiKey <secret key>',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'DashboardSession', {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: 'The dashboard session cookie set by sign-in; changes must come from the service origin (Origin header)',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'HeraldEnvironment', {
    type: 'apiKey',
    in: 'header',
    name: ENVIRONMENT_HEADER,
    description: 'With a dashboard session on /v1 and /v2: the id of the environment the request acts on',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'SubscriberToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'Bearer <token from POST /v1/inbox/session>',
  });
  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: { title: `${serviceName} API`, version: '1.0.0', description: 'Notification infrastructure: workflows, subscribers, topics, delivery and activity.' },
    security: [{ ApiKey: [] }, { DashboardSession: [], HeraldEnvironment: [] }],
  });
  app.notFound(notFoundHandler(app));
  app.onError(handleError);
  return app;
}

export type App = ReturnType<typeof buildApp>;
