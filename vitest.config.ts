import { defineConfig } from 'vitest/config';

// Tests that assert how fast the service recovers run last and one at a time, on a machine no
// other test file shares: their bounds are the service's, not the neighbours'.
const ALONE = ['test/delivery-crash.e2e.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'suite',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ALONE,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'alone', include: ALONE, fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
