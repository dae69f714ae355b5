import { PgWebhookWaker, SqlWebhookEndpointRepository, SqlWebhookOutbox } from '@herald/adapters';
import {
  CreateWebhookEndpoint,
  CredentialCipher,
  DeleteWebhookEndpoint,
  DispatchWebhooks,
  GetWebhookEndpoint,
  HttpClient,
  ListWebhookAttempts,
  ListWebhookEndpoints,
  ReplayWebhookDeliveries,
  RotateWebhookSecret,
  UpdateWebhookEndpoint,
  WebhookEndpointRepository,
  WebhookOutbox,
} from '@herald/domain';
import type { Wiring } from './binder';

/** Outbound webhooks: endpoints (secrets encrypted), the outbox the database writes, and its dispatcher. */
export const webhooks: Wiring = (bind, { db, config, logger, observability }) => {
  const policy = { allowPrivateNetworks: config.allowPrivateNetworks };
  bind.factory(WebhookEndpointRepository, [CredentialCipher], (cipher) => new SqlWebhookEndpointRepository(db.pool, cipher));
  bind.factory(WebhookOutbox, [CredentialCipher], (cipher) => new SqlWebhookOutbox(db.workerPool, cipher));

  bind.factory(CreateWebhookEndpoint, [WebhookEndpointRepository], (e) => new CreateWebhookEndpoint(e, policy));
  bind.factory(UpdateWebhookEndpoint, [WebhookEndpointRepository], (e) => new UpdateWebhookEndpoint(e, policy));
  bind.construct(GetWebhookEndpoint, [WebhookEndpointRepository]);
  bind.construct(ListWebhookEndpoints, [WebhookEndpointRepository]);
  bind.construct(DeleteWebhookEndpoint, [WebhookEndpointRepository]);
  bind.factory(RotateWebhookSecret, [WebhookEndpointRepository], (e) => new RotateWebhookSecret(e));
  bind.construct(ListWebhookAttempts, [WebhookEndpointRepository, WebhookOutbox]);
  bind.construct(ReplayWebhookDeliveries, [WebhookEndpointRepository, WebhookOutbox]);

  // Attempts go through the same outbound guard as HTTP steps (private addresses refused unless allowed).
  bind.factory(DispatchWebhooks, [WebhookOutbox, HttpClient], (outbox, http) => new DispatchWebhooks(outbox, http, config.webhooks, observability.webhookObserver(logger)));
  bind.value(PgWebhookWaker, new PgWebhookWaker(db.workerPool, logger));
};
