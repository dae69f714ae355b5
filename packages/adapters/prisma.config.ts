import { defineConfig } from 'prisma/config';

// The URL is only needed by migrate commands; `generate` must work without it.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/herald' },
});
