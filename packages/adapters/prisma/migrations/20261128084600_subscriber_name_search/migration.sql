-- The subscriber search by name (GET /v2/subscribers?name=) matches a substring of the first or the
-- last name, or a first name and the start of a last name. Without an index for substrings, every
-- such search read the whole environment: 0.7-2 s at 1,000,000 subscribers (bench/dashboard.bench.ts),
-- against 20-100 ms with these, on a loaded machine.
--
-- pg_trgm ships with PostgreSQL (contrib) and is a trusted extension since PostgreSQL 13: the
-- database's owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX "subscribers_first_name_trgm_idx" ON "subscribers" USING gin ("first_name" gin_trgm_ops);
CREATE INDEX "subscribers_last_name_trgm_idx" ON "subscribers" USING gin ("last_name" gin_trgm_ops);

-- "first last": the first name and the start of the last name are one range of this index.
DROP INDEX "subscribers_environment_id_first_name_idx";
CREATE INDEX "subscribers_environment_id_first_name_last_name_idx" ON "subscribers"("environment_id", "first_name", "last_name");
