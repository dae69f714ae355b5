-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "organizations" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "idempotency_enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "organizations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "environments" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "signing_secret" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "environments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "environment_id" UUID NOT NULL,
    "key_hash" TEXT NOT NULL,
    "hint" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_records" (
    "organization_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "status_code" INTEGER,
    "response_body" TEXT,
    "content_type" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("organization_id","key")
);

-- CreateTable
CREATE TABLE "subscribers" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "environment_id" UUID NOT NULL,
    "subscriber_id" TEXT NOT NULL,
    "first_name" TEXT,
    "last_name" TEXT,
    "email" TEXT,
    "phone" TEXT,
    "avatar" TEXT,
    "locale" TEXT,
    "timezone" TEXT,
    "data" JSONB,
    "channels" JSONB NOT NULL DEFAULT '[]',
    "is_online" BOOLEAN,
    "last_online_at" TIMESTAMPTZ(3),
    "version" INTEGER NOT NULL DEFAULT 0,
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subscribers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tenants" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "environment_id" UUID NOT NULL,
    "identifier" TEXT NOT NULL,
    "name" TEXT,
    "data" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tenants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "topics" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "environment_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "topics_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "topic_subscriptions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "environment_id" UUID NOT NULL,
    "topic_id" UUID NOT NULL,
    "subscriber_id" UUID NOT NULL,
    "identifier" TEXT NOT NULL,
    "name" TEXT,
    "context_keys" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "preferences" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "topic_subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subscriber_preferences" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "environment_id" UUID NOT NULL,
    "subscriber_id" UUID NOT NULL,
    "workflow_id" UUID,
    "enabled" BOOLEAN,
    "channels" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subscriber_preferences_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workflows" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "environment_id" UUID NOT NULL,
    "workflow_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "active" BOOLEAN NOT NULL DEFAULT true,
    "critical" BOOLEAN NOT NULL DEFAULT false,
    "severity" TEXT NOT NULL DEFAULT 'none',
    "origin" TEXT NOT NULL DEFAULT 'external',
    "payload_schema" JSONB,
    "preferences" JSONB NOT NULL DEFAULT '{}',
    "data" JSONB,
    "is_translation_enabled" BOOLEAN NOT NULL DEFAULT false,
    "last_triggered_at" TIMESTAMPTZ(3),
    "last_published_at" TIMESTAMPTZ(3),
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workflows_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workflow_steps" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "workflow_id" UUID NOT NULL,
    "step_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "control_values" JSONB NOT NULL DEFAULT '{}',
    "skip" JSONB,
    "filters" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workflow_steps_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "integrations" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "environment_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "identifier" TEXT NOT NULL,
    "provider_id" TEXT NOT NULL,
    "channel" TEXT,
    "kind" TEXT NOT NULL DEFAULT 'delivery',
    "credentials" TEXT,
    "configurations" JSONB NOT NULL DEFAULT '{}',
    "active" BOOLEAN NOT NULL DEFAULT true,
    "primary" BOOLEAN NOT NULL DEFAULT false,
    "priority" INTEGER NOT NULL DEFAULT 0,
    "conditions" JSONB NOT NULL DEFAULT '[]',
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    "deleted_at" TIMESTAMPTZ(3),
    "deleted_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "integrations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "channel_connections" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "environment_id" UUID NOT NULL,
    "identifier" TEXT NOT NULL,
    "integration_id" UUID NOT NULL,
    "subscriber_id" UUID,
    "context_keys" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "workspace" JSONB NOT NULL,
    "auth" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "channel_connections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "channel_endpoints" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "environment_id" UUID NOT NULL,
    "identifier" TEXT NOT NULL,
    "integration_id" UUID NOT NULL,
    "connection_id" UUID,
    "subscriber_id" UUID NOT NULL,
    "context_keys" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "type" TEXT NOT NULL,
    "endpoint" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "channel_endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "events" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "environment_id" UUID NOT NULL,
    "workflow_id" UUID NOT NULL,
    "transaction_id" TEXT NOT NULL,
    "payload" JSONB NOT NULL DEFAULT '{}',
    "overrides" JSONB NOT NULL DEFAULT '{}',
    "to" JSONB NOT NULL,
    "actor" JSONB,
    "tenant" JSONB,
    "context_keys" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "status" TEXT NOT NULL DEFAULT 'accepted',
    "fanout_cursor" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "fanned_out_at" TIMESTAMPTZ(3),

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notifications" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "environment_id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "workflow_id" UUID NOT NULL,
    "subscriber_id" UUID NOT NULL,
    "transaction_id" TEXT NOT NULL,
    "channels" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "payload" JSONB NOT NULL DEFAULT '{}',
    "controls" JSONB,
    "to" JSONB,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "topics" JSONB NOT NULL DEFAULT '[]',
    "topic_keys" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "subscription_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "severity" TEXT NOT NULL DEFAULT 'none',
    "critical" BOOLEAN NOT NULL DEFAULT false,
    "context_keys" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "digested_notification_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notifications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "jobs" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "environment_id" UUID NOT NULL,
    "notification_id" UUID NOT NULL,
    "subscriber_id" UUID NOT NULL,
    "workflow_step_id" UUID NOT NULL,
    "step_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "provider_id" TEXT,
    "digest" JSONB,
    "output" JSONB,
    "run_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "schedule_extensions_count" INTEGER NOT NULL DEFAULT 0,
    "digest_window_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "execution_details" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "environment_id" UUID NOT NULL,
    "job_id" UUID NOT NULL,
    "notification_id" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'Internal',
    "detail" TEXT NOT NULL,
    "provider_id" TEXT,
    "raw" TEXT,
    "is_retry" BOOLEAN NOT NULL DEFAULT false,
    "is_test" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "execution_details_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "messages" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "environment_id" UUID NOT NULL,
    "notification_id" UUID NOT NULL,
    "job_id" UUID NOT NULL,
    "subscriber_id" UUID NOT NULL,
    "transaction_id" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "provider_id" TEXT,
    "integration_id" UUID,
    "destination" JSONB,
    "subject" TEXT,
    "body" TEXT NOT NULL,
    "avatar" TEXT,
    "primary_action" JSONB,
    "secondary_action" JSONB,
    "redirect" JSONB,
    "data" JSONB,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "workflow" JSONB,
    "severity" TEXT NOT NULL DEFAULT 'none',
    "context_keys" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "status" TEXT NOT NULL DEFAULT 'sent',
    "provider_message_id" TEXT,
    "is_read" BOOLEAN NOT NULL DEFAULT false,
    "is_seen" BOOLEAN NOT NULL DEFAULT false,
    "is_archived" BOOLEAN NOT NULL DEFAULT false,
    "is_snoozed" BOOLEAN NOT NULL DEFAULT false,
    "snoozed_until" TIMESTAMPTZ(3),
    "read_at" TIMESTAMPTZ(3),
    "first_seen_at" TIMESTAMPTZ(3),
    "archived_at" TIMESTAMPTZ(3),
    "delivered_at" TIMESTAMPTZ(3)[] DEFAULT ARRAY[]::TIMESTAMPTZ(3)[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "digest_windows" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "environment_id" UUID NOT NULL,
    "workflow_step_id" UUID NOT NULL,
    "subscriber_id" UUID NOT NULL,
    "digest_key" TEXT NOT NULL DEFAULT '',
    "leader_job_id" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "closes_at" TIMESTAMPTZ(3) NOT NULL,
    "event_count" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closed_at" TIMESTAMPTZ(3),

    CONSTRAINT "digest_windows_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "environments_organization_id_slug_key" ON "environments"("organization_id", "slug");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");

-- CreateIndex
CREATE INDEX "api_keys_environment_id_idx" ON "api_keys"("environment_id");

-- CreateIndex
CREATE INDEX "idempotency_records_expires_at_idx" ON "idempotency_records"("expires_at");

-- CreateIndex
CREATE INDEX "subscribers_environment_id_created_at_id_idx" ON "subscribers"("environment_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "subscribers_environment_id_email_idx" ON "subscribers"("environment_id", "email");

-- CreateIndex
CREATE INDEX "subscribers_environment_id_phone_idx" ON "subscribers"("environment_id", "phone");

-- CreateIndex
CREATE INDEX "subscribers_environment_id_first_name_idx" ON "subscribers"("environment_id", "first_name");

-- CreateIndex
CREATE INDEX "subscribers_environment_id_last_name_idx" ON "subscribers"("environment_id", "last_name");

-- CreateIndex
CREATE UNIQUE INDEX "subscribers_environment_id_subscriber_id_key" ON "subscribers"("environment_id", "subscriber_id");

-- CreateIndex
CREATE UNIQUE INDEX "tenants_environment_id_identifier_key" ON "tenants"("environment_id", "identifier");

-- CreateIndex
CREATE INDEX "topics_environment_id_created_at_id_idx" ON "topics"("environment_id", "created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "topics_environment_id_key_key" ON "topics"("environment_id", "key");

-- CreateIndex
CREATE INDEX "topic_subscriptions_topic_id_subscriber_id_idx" ON "topic_subscriptions"("topic_id", "subscriber_id");

-- CreateIndex
CREATE INDEX "topic_subscriptions_topic_id_created_at_id_idx" ON "topic_subscriptions"("topic_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "topic_subscriptions_subscriber_id_created_at_id_idx" ON "topic_subscriptions"("subscriber_id", "created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "topic_subscriptions_environment_id_identifier_key" ON "topic_subscriptions"("environment_id", "identifier");

-- CreateIndex
CREATE INDEX "subscriber_preferences_subscriber_id_idx" ON "subscriber_preferences"("subscriber_id");

-- CreateIndex
CREATE INDEX "workflows_environment_id_created_at_idx" ON "workflows"("environment_id", "created_at");

-- CreateIndex
CREATE INDEX "workflows_environment_id_updated_at_idx" ON "workflows"("environment_id", "updated_at");

-- CreateIndex
CREATE INDEX "workflows_environment_id_name_idx" ON "workflows"("environment_id", "name");

-- CreateIndex
CREATE INDEX "workflows_environment_id_last_triggered_at_idx" ON "workflows"("environment_id", "last_triggered_at");

-- CreateIndex
CREATE UNIQUE INDEX "workflows_environment_id_workflow_id_key" ON "workflows"("environment_id", "workflow_id");

-- CreateIndex
CREATE INDEX "workflow_steps_workflow_id_position_idx" ON "workflow_steps"("workflow_id", "position");

-- CreateIndex
CREATE UNIQUE INDEX "workflow_steps_workflow_id_step_id_key" ON "workflow_steps"("workflow_id", "step_id");

-- CreateIndex
CREATE INDEX "integrations_environment_id_channel_active_idx" ON "integrations"("environment_id", "channel", "active");

-- CreateIndex
CREATE INDEX "channel_connections_environment_id_created_at_id_idx" ON "channel_connections"("environment_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "channel_connections_subscriber_id_idx" ON "channel_connections"("subscriber_id");

-- CreateIndex
CREATE UNIQUE INDEX "channel_connections_environment_id_identifier_key" ON "channel_connections"("environment_id", "identifier");

-- CreateIndex
CREATE INDEX "channel_endpoints_environment_id_created_at_id_idx" ON "channel_endpoints"("environment_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "channel_endpoints_subscriber_id_idx" ON "channel_endpoints"("subscriber_id");

-- CreateIndex
CREATE UNIQUE INDEX "channel_endpoints_environment_id_identifier_key" ON "channel_endpoints"("environment_id", "identifier");

-- CreateIndex
CREATE INDEX "events_status_created_at_idx" ON "events"("status", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "events_environment_id_transaction_id_key" ON "events"("environment_id", "transaction_id");

-- CreateIndex
CREATE INDEX "notifications_environment_id_created_at_id_idx" ON "notifications"("environment_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "notifications_environment_id_transaction_id_idx" ON "notifications"("environment_id", "transaction_id");

-- CreateIndex
CREATE INDEX "notifications_environment_id_subscriber_id_created_at_idx" ON "notifications"("environment_id", "subscriber_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "notifications_environment_id_workflow_id_created_at_idx" ON "notifications"("environment_id", "workflow_id", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "notifications_event_id_subscriber_id_key" ON "notifications"("event_id", "subscriber_id");

-- CreateIndex
CREATE INDEX "jobs_status_run_at_idx" ON "jobs"("status", "run_at");

-- CreateIndex
CREATE INDEX "jobs_environment_id_workflow_step_id_subscriber_id_status_idx" ON "jobs"("environment_id", "workflow_step_id", "subscriber_id", "status");

-- CreateIndex
CREATE INDEX "jobs_digest_window_id_idx" ON "jobs"("digest_window_id");

-- CreateIndex
CREATE UNIQUE INDEX "jobs_notification_id_workflow_step_id_key" ON "jobs"("notification_id", "workflow_step_id");

-- CreateIndex
CREATE INDEX "execution_details_job_id_created_at_idx" ON "execution_details"("job_id", "created_at");

-- CreateIndex
CREATE INDEX "execution_details_notification_id_idx" ON "execution_details"("notification_id");

-- CreateIndex
CREATE UNIQUE INDEX "messages_job_id_key" ON "messages"("job_id");

-- CreateIndex
CREATE INDEX "messages_subscriber_id_channel_created_at_id_idx" ON "messages"("subscriber_id", "channel", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "messages_notification_id_idx" ON "messages"("notification_id");

-- CreateIndex
CREATE INDEX "messages_environment_id_provider_id_created_at_idx" ON "messages"("environment_id", "provider_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "digest_windows_status_closes_at_idx" ON "digest_windows"("status", "closes_at");

-- AddForeignKey
ALTER TABLE "environments" ADD CONSTRAINT "environments_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_environment_id_fkey" FOREIGN KEY ("environment_id") REFERENCES "environments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "topic_subscriptions" ADD CONSTRAINT "topic_subscriptions_topic_id_fkey" FOREIGN KEY ("topic_id") REFERENCES "topics"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "topic_subscriptions" ADD CONSTRAINT "topic_subscriptions_subscriber_id_fkey" FOREIGN KEY ("subscriber_id") REFERENCES "subscribers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriber_preferences" ADD CONSTRAINT "subscriber_preferences_subscriber_id_fkey" FOREIGN KEY ("subscriber_id") REFERENCES "subscribers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriber_preferences" ADD CONSTRAINT "subscriber_preferences_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow_steps" ADD CONSTRAINT "workflow_steps_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "channel_endpoints" ADD CONSTRAINT "channel_endpoints_subscriber_id_fkey" FOREIGN KEY ("subscriber_id") REFERENCES "subscribers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_notification_id_fkey" FOREIGN KEY ("notification_id") REFERENCES "notifications"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "execution_details" ADD CONSTRAINT "execution_details_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Constraints Prisma's schema language cannot express (hand-written).

-- One global preference row per subscriber, one per (subscriber, workflow).
CREATE UNIQUE INDEX "subscriber_preferences_global_key" ON "subscriber_preferences"("subscriber_id") WHERE "workflow_id" IS NULL;
CREATE UNIQUE INDEX "subscriber_preferences_workflow_key" ON "subscriber_preferences"("subscriber_id", "workflow_id") WHERE "workflow_id" IS NOT NULL;

-- Identifiers are unique among live integrations; at most one primary per channel.
CREATE UNIQUE INDEX "integrations_identifier_key" ON "integrations"("environment_id", "identifier") WHERE NOT "deleted";
CREATE UNIQUE INDEX "integrations_primary_key" ON "integrations"("environment_id", "channel") WHERE "primary" AND NOT "deleted";

-- One open digest window per step, subscriber and digest key: concurrent events join it, never race to open two.
CREATE UNIQUE INDEX "digest_windows_open_key" ON "digest_windows"("workflow_step_id", "subscriber_id", "digest_key") WHERE "status" = 'open';

-- Array filters of the activity log and the inbox.
CREATE INDEX "notifications_channels_idx" ON "notifications" USING GIN ("channels");
CREATE INDEX "notifications_topic_keys_idx" ON "notifications" USING GIN ("topic_keys");
CREATE INDEX "notifications_subscription_ids_idx" ON "notifications" USING GIN ("subscription_ids");
CREATE INDEX "notifications_context_keys_idx" ON "notifications" USING GIN ("context_keys");
CREATE INDEX "messages_context_keys_idx" ON "messages" USING GIN ("context_keys");
CREATE INDEX "topic_subscriptions_context_keys_idx" ON "topic_subscriptions" USING GIN ("context_keys");
CREATE INDEX "channel_endpoints_context_keys_idx" ON "channel_endpoints" USING GIN ("context_keys");
CREATE INDEX "channel_connections_context_keys_idx" ON "channel_connections" USING GIN ("context_keys");
