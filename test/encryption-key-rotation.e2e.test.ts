import { randomBytes } from 'node:crypto';
import { Novu } from '@novu/api';
import { keyId } from '@herald/adapters';
import { afterAll, describe, expect, it } from 'vitest';
import { operatorCommandWith } from './support/operator-command';
import { startService, type TestService } from './support/service';

// The rotation procedure of docs/operations.md, as an operator follows it: key A, then B with A
// previous, `pnpm herald encryption rotate`, then B alone.
const [A, B] = [randomBytes(32), randomBytes(32)];
const services: TestService[] = [];
afterAll(async () => {
  for (const s of services.reverse()) await s.dispose();
});

describe('rotating HERALD_ENCRYPTION_KEY', () => {
  it('reads old values during the rotation, re-encrypts them with the operator command, then runs on the new key alone', async () => {
    const first = await startService({ HERALD_ENCRYPTION_KEY: A.toString('base64') });
    services.push(first);
    const novuA = new Novu({ secretKey: first.apiKey, serverURL: first.url });
    await novuA.integrations.create({ providerId: 'push-webhook', channel: 'push', identifier: 'phones', credentials: { webhookUrl: 'https://push.example.com/hook' }, active: true });
    await novuA.subscribers.create({ subscriberId: 'rita' });
    await novuA.subscribers.credentials.update({ providerId: 'push-webhook', credentials: { deviceTokens: ['t1', 't2'] } }, 'rita');
    await first.stop();

    const rotating = await first.startPeer({ HERALD_ENCRYPTION_KEY: B.toString('base64'), HERALD_ENCRYPTION_KEYS_PREVIOUS: A.toString('base64') });
    services.push(rotating);
    const novuB = new Novu({ secretKey: rotating.apiKey, serverURL: rotating.url });
    const tokens = async (novu: Novu) => (await novu.subscribers.retrieve('rita')).result.channels?.[0]?.credentials?.deviceTokens;
    expect(await tokens(novuB)).toEqual(['t1', 't2']);

    const env = { DATABASE_URL: rotating.databaseUrl, HERALD_ENCRYPTION_KEY: B.toString('base64'), HERALD_ENCRYPTION_KEYS_PREVIOUS: A.toString('base64') };
    const before = await operatorCommandWith(env, '', 'encryption', 'status');
    expect(before).toMatch(new RegExp(`subscribers\\.channels\\t${keyId(A)} \\(previous\\)\\t2`));
    expect(before).toMatch(new RegExp(`integrations\\.credentials\\t${keyId(A)} \\(previous\\)\\t1`));
    const rotated = await operatorCommandWith(env, '', 'encryption', 'rotate');
    expect(rotated).toMatch(/subscribers\.channels\tre-encrypted 1\tleft 0\tunreadable 0/);
    expect(rotated).toMatch(/integrations\.credentials\tre-encrypted 1\tleft 0/);
    expect(rotated).toContain('the previous keys can be dropped');
    const after = await operatorCommandWith(env, '', 'encryption', 'status');
    expect(after).not.toContain(keyId(A));
    expect(await operatorCommandWith(env, '', 'encryption', 'rotate')).toMatch(/subscribers\.channels\tre-encrypted 0/);
    await rotating.stop();

    const onlyB = await first.startPeer({ HERALD_ENCRYPTION_KEY: B.toString('base64') });
    services.push(onlyB);
    expect(await tokens(new Novu({ secretKey: onlyB.apiKey, serverURL: onlyB.url }))).toEqual(['t1', 't2']);
    // Three service starts and four operator commands, each a process of its own.
  }, 240_000);
});
