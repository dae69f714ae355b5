import { describe, expect, it } from 'vitest';
import { ScryptPasswordHasher } from './scrypt-password-hasher';

describe('ScryptPasswordHasher', () => {
  const hasher = new ScryptPasswordHasher();

  it('stores a salted hash that carries its cost, and verifies only the right password', async () => {
    const stored = await hasher.hash('correct horse battery');
    expect(stored).toMatch(/^scrypt\$32768\$8\$3\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(stored).not.toContain('correct horse');
    expect(await hasher.hash('correct horse battery')).not.toBe(stored);
    expect(await hasher.verify('correct horse battery', stored)).toEqual({ valid: true, rehash: false });
    expect(await hasher.verify('correct horse batterY', stored)).toEqual({ valid: false, rehash: false });
  });

  it('verifies a hash made with a lower cost and asks for it to be replaced', async () => {
    const weaker = await new ScryptPasswordHasher({ N: 2 ** 10, r: 8, p: 1 }).hash('correct horse battery');
    expect(await hasher.verify('correct horse battery', weaker)).toEqual({ valid: true, rehash: true });
  });

  it('refuses stored values it did not write, and costs it would not choose', async () => {
    for (const stored of ['', 'plain', 'scrypt$x$8$1$c2FsdA==$a2V5', 'bcrypt$2$8$1$c2FsdA==$a2V5', 'scrypt$4194304$8$1$c2FsdA==$a2V5']) {
      expect(await hasher.verify('anything at all', stored)).toEqual({ valid: false, rehash: false });
    }
  });

  it('takes as long to refuse an unknown account as a known one (both derive a key)', async () => {
    const stored = await hasher.hash('correct horse battery');
    const time = async (run: () => Promise<unknown>) => {
      const started = performance.now();
      await run();
      return performance.now() - started;
    };
    const known = await time(() => hasher.verify('wrong password here', stored));
    const unknown = await time(() => hasher.burn('wrong password here'));
    expect(unknown).toBeGreaterThan(known / 3);
  });
});
