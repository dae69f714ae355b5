-- CreateTable
CREATE TABLE "dashboard_users" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_sign_in_at" TIMESTAMPTZ(3),

    CONSTRAINT "dashboard_users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dashboard_sessions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "dashboard_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dashboard_invitations" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "purpose" TEXT NOT NULL,
    "email" TEXT,
    "role" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "invited_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "dashboard_invitations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dashboard_login_attempts" (
    "key" TEXT NOT NULL,
    "window_start" TIMESTAMPTZ(3) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "dashboard_login_attempts_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "overview_counts" (
    "environment_id" UUID NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "metric" TEXT NOT NULL,
    "channel" TEXT NOT NULL DEFAULT '',
    "provider_id" TEXT NOT NULL DEFAULT '',
    "outcome" TEXT NOT NULL DEFAULT '',
    "count" BIGINT NOT NULL,

    CONSTRAINT "overview_counts_pkey" PRIMARY KEY ("environment_id","hour","metric","channel","provider_id","outcome")
);

-- CreateIndex
CREATE UNIQUE INDEX "dashboard_users_email_key" ON "dashboard_users"("email");

-- CreateIndex
CREATE INDEX "dashboard_users_organization_id_idx" ON "dashboard_users"("organization_id");

-- CreateIndex
CREATE UNIQUE INDEX "dashboard_sessions_token_hash_key" ON "dashboard_sessions"("token_hash");

-- CreateIndex
CREATE INDEX "dashboard_sessions_user_id_idx" ON "dashboard_sessions"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "dashboard_invitations_token_hash_key" ON "dashboard_invitations"("token_hash");

-- CreateIndex
CREATE INDEX "dashboard_invitations_organization_id_created_at_idx" ON "dashboard_invitations"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "dashboard_login_attempts_window_start_idx" ON "dashboard_login_attempts"("window_start");

-- AddForeignKey
ALTER TABLE "dashboard_users" ADD CONSTRAINT "dashboard_users_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dashboard_sessions" ADD CONSTRAINT "dashboard_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "dashboard_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: the roles and purposes the code knows, so no other value is ever stored.
ALTER TABLE "dashboard_users" ADD CONSTRAINT "dashboard_users_role_check" CHECK ("role" IN ('admin', 'viewer'));
ALTER TABLE "dashboard_invitations" ADD CONSTRAINT "dashboard_invitations_role_check" CHECK ("role" IN ('admin', 'viewer'));
ALTER TABLE "dashboard_invitations" ADD CONSTRAINT "dashboard_invitations_purpose_check" CHECK ("purpose" IN ('setup', 'invitation') AND ("purpose" = 'setup') = ("email" IS NULL));
