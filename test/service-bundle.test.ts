import { existsSync } from 'node:fs';
import { rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EARLIER_BUILD_GRACE_MS, SERVICE_DIR, buildService } from '../apps/http/scripts/build-service.mjs';

describe('the service bundle (dist/service)', () => {
  it('removes the files of earlier builds once no start can still be loading them, and keeps recent ones', async () => {
    const old = join(SERVICE_DIR, 'chunk-EARLIERBUILDTEST.js');
    const recent = join(SERVICE_DIR, 'chunk-RECENTBUILDTEST.js');
    await writeFile(old, 'export {};\n');
    await writeFile(recent, 'export {};\n');
    const past = new Date(Date.now() - EARLIER_BUILD_GRACE_MS - 60_000);
    await utimes(old, past, past);
    try {
      await buildService();
      expect(existsSync(old)).toBe(false);
      expect(existsSync(recent)).toBe(true);
      // What the build wrote stays, however old the files it overwrote were.
      expect(existsSync(join(SERVICE_DIR, 'main.js'))).toBe(true);
      expect(existsSync(join(SERVICE_DIR, 'inputs.json'))).toBe(true);
    } finally {
      await Promise.all([rm(old, { force: true }), rm(recent, { force: true })]);
    }
  });
});
