import { Novu } from '@novu/api';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './support/service';

// The spec's idempotency state table, row by row, through the running service. The database is used
// only to hold a lock that keeps a request running, to read what was recorded, and to stand in for
// the passing of time (moving an expiry into the past).
let svc: TestService;
let db: pg.Pool;

beforeAll(async () => {
  svc = await startService();
  db = new pg.Pool({ connectionString: svc.databaseUrl, max: 3 });
});
afterAll(async () => {
  await db?.end();
  await svc?.dispose();
});

let counter = 0;
const uniqueKey = (label: string) => `${label}-${Date.now()}-${++counter}`;

function send(path: string, json: unknown, key: string | undefined, method = 'POST') {
  return svc.request(path, { method, json, headers: key === undefined ? {} : { 'idempotency-key': key } });
}

async function record(key: string) {
  const { rows } = await db.query(
    `SELECT state, status_code, response_body, expires_at, extract(epoch FROM expires_at - now())::float8 AS ttl_seconds FROM idempotency_records WHERE key = $1`,
    [key],
  );
  return rows[0] as { state: string; status_code: number | null; response_body: string | null; ttl_seconds: number } | undefined;
}

async function waitForRecord(key: string) {
  for (let i = 0; i < 200; i++) {
    if (await record(key)) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no idempotency record for ${key}`);
}

/** Stands in for time passing: the record lapses now. */
const expire = (key: string) => db.query(`UPDATE idempotency_records SET expires_at = now() - interval '1 second' WHERE key = $1`, [key]);

/** Holds inserts into subscribers, so a POST /v2/subscribers that claimed its key stays in progress. */
async function holdSubscriberInserts() {
  const client = await db.connect();
  await client.query('BEGIN');
  await client.query('LOCK TABLE subscribers IN SHARE ROW EXCLUSIVE MODE');
  return async () => {
    await client.query('COMMIT');
    client.release();
  };
}

async function expectIdempotencyError(res: Response, key: string, status: number, code: string, message: RegExp) {
  expect(res.status).toBe(status);
  expect(res.headers.get('idempotency-key')).toBe(key);
  expect(res.headers.get('idempotency-replay')).toBeNull();
  const body = await res.json();
  expect(body).toMatchObject({ statusCode: status, code, message: expect.stringMatching(message) });
  return body;
}

describe('idempotency keys: the state table', () => {
  it('unseen key: the request runs normally and its key is echoed', async () => {
    const key = uniqueKey('unseen');
    const res = await send('/v2/subscribers', { subscriberId: 'idem-unseen', firstName: 'Ada' }, key);
    expect(res.status).toBe(201);
    expect(res.headers.get('idempotency-key')).toBe(key);
    expect(res.headers.get('idempotency-replay')).toBeNull();
    expect((await res.json()).data).toMatchObject({ subscriberId: 'idem-unseen', firstName: 'Ada' });
  });

  it('request finishes: the response is cached 24 hours; same key and body replays it byte for byte', async () => {
    const key = uniqueKey('replay');
    const first = await send('/v2/subscribers?failIfExists=true', { subscriberId: 'idem-replay', data: { b: 1, a: 2 } }, key);
    const firstBody = await first.text();
    expect(first.status).toBe(201);
    const stored = await record(key);
    expect(stored).toMatchObject({ state: 'done', status_code: 201, response_body: firstBody });
    expect(stored!.ttl_seconds).toBeGreaterThan(24 * 3600 - 60);
    expect(stored!.ttl_seconds).toBeLessThanOrEqual(24 * 3600);

    // Same body with its keys in another order: a replay, not a second create (which would be a 409 here).
    const again = await send('/v2/subscribers?failIfExists=true', { data: { a: 2, b: 1 }, subscriberId: 'idem-replay' }, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotency-replay')).toBe('true');
    expect(again.headers.get('idempotency-key')).toBe(key);
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(await again.text()).toBe(firstBody);
  });

  it('request finishes with an error: the error is cached and replayed with its status code', async () => {
    const key = uniqueKey('error');
    const first = await send('/v2/subscribers/idem-nobody', { firstName: 'Nobody' }, key, 'PATCH');
    const firstBody = await first.text();
    expect(first.status).toBe(404);
    // The subscriber now exists, but the key still answers with the response it gave.
    expect((await send('/v2/subscribers', { subscriberId: 'idem-nobody' }, undefined)).status).toBe(201);
    const again = await send('/v2/subscribers/idem-nobody', { firstName: 'Nobody' }, key, 'PATCH');
    expect(again.status).toBe(404);
    expect(again.headers.get('idempotency-replay')).toBe('true');
    expect(await again.text()).toBe(firstBody);
    expect(await record(key)).toMatchObject({ state: 'done', status_code: 404 });
  });

  it('same key while in progress: 409 with Retry-After: 1; a different body: 422; then the finished response', async () => {
    const key = uniqueKey('progress');
    const body = { subscriberId: 'idem-progress', lastName: 'Slow' };
    const release = await holdSubscriberInserts();
    let first: Promise<Response>;
    try {
      first = send('/v2/subscribers', body, key);
      await waitForRecord(key);
      const marker = await record(key);
      expect(marker).toMatchObject({ state: 'in_progress', response_body: null });
      expect(marker!.ttl_seconds).toBeGreaterThan(4 * 60);
      expect(marker!.ttl_seconds).toBeLessThanOrEqual(5 * 60);

      const busy = await send('/v2/subscribers', body, key);
      await expectIdempotencyError(busy, key, 409, 'IDEMPOTENCY_KEY_IN_PROGRESS', /currently being processed.*retry after 1 second/i);
      expect(busy.headers.get('retry-after')).toBe('1');

      const other = await send('/v2/subscribers', { ...body, lastName: 'Other' }, key);
      await expectIdempotencyError(other, key, 422, 'IDEMPOTENCY_KEY_BODY_MISMATCH', /reused for a different body/);
      expect(other.headers.get('retry-after')).toBeNull();
    } finally {
      await release();
    }
    const done = await first!;
    expect(done.status).toBe(201);
    const replay = await send('/v2/subscribers', body, key);
    expect(replay.headers.get('idempotency-replay')).toBe('true');
    expect(await replay.text()).toBe(await done.text());
  });

  it('same key, different body once finished: 422, and the first response stays cached', async () => {
    const key = uniqueKey('mismatch');
    const first = await send('/v2/subscribers', { subscriberId: 'idem-mismatch' }, key);
    const firstBody = await first.text();
    await expectIdempotencyError(await send('/v2/subscribers', { subscriberId: 'idem-mismatch-2' }, key), key, 422, 'IDEMPOTENCY_KEY_BODY_MISMATCH', /reused for a different body/);
    // Another path with the same body is another request too.
    await expectIdempotencyError(await send('/v2/subscribers?failIfExists=true', { subscriberId: 'idem-mismatch' }, key), key, 422, 'IDEMPOTENCY_KEY_BODY_MISMATCH', /different body/);
    expect((await svc.request('/v2/subscribers/idem-mismatch-2')).status).toBe(404);
    expect(await (await send('/v2/subscribers', { subscriberId: 'idem-mismatch' }, key)).text()).toBe(firstBody);
  });

  it('cache expiry: an expired key is unseen again and may be reused with any body', async () => {
    const key = uniqueKey('expiry');
    await send('/v2/subscribers', { subscriberId: 'idem-expiry-1' }, key);
    await expire(key);
    const reused = await send('/v2/subscribers', { subscriberId: 'idem-expiry-2' }, key);
    expect(reused.status).toBe(201);
    expect(reused.headers.get('idempotency-replay')).toBeNull();
    expect((await reused.json()).data.subscriberId).toBe('idem-expiry-2');
    expect(await record(key)).toMatchObject({ state: 'done' });
  });

  it('a request cut short by a crash leaves only its in-progress marker, which lapses within 5 minutes', async () => {
    const key = uniqueKey('crash');
    const body = { subscriberId: 'idem-crash' };
    const release = await holdSubscriberInserts();
    const inflight = send('/v2/subscribers', body, key).catch(() => 'no answer');
    try {
      await waitForRecord(key);
      await svc.kill();
    } finally {
      await release();
    }
    expect(await inflight).toBe('no answer');
    await svc.restart();

    const marker = await record(key);
    expect(marker).toMatchObject({ state: 'in_progress', status_code: null, response_body: null });
    expect(marker!.ttl_seconds).toBeLessThanOrEqual(5 * 60);
    await expectIdempotencyError(await send('/v2/subscribers', body, key), key, 409, 'IDEMPOTENCY_KEY_IN_PROGRESS', /currently being processed/);
    // Whether the dead process's INSERT committed is up to PostgreSQL; no answer was cached either way.

    await expire(key); // five minutes later
    const retried = await send('/v2/subscribers', body, key);
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotency-replay')).toBeNull();
  });
});

describe('idempotency keys: limits and methods', () => {
  it('refuses a key of 256 characters with 400 and accepts one of 255', async () => {
    const long = 'k'.repeat(256);
    const refused = await send('/v2/subscribers', { subscriberId: 'idem-long' }, long);
    await expectIdempotencyError(refused, long, 400, 'IDEMPOTENCY_KEY_TOO_LONG', /exceeds the maximum allowed length of 255 characters/);
    expect((await svc.request('/v2/subscribers/idem-long')).status).toBe(404);

    const max = `${uniqueKey('max')}-`.padEnd(255, 'k');
    const accepted = await send('/v2/subscribers', { subscriberId: 'idem-long' }, max);
    expect(accepted.status).toBe(201);
    expect(accepted.headers.get('idempotency-key')).toBe(max);
  });

  it('50 concurrent identical POSTs with one key create one subscriber; every other answer is a 409 or the identical replay', async () => {
    const key = uniqueKey('race');
    // failIfExists: a second execution could not pass for the first, it would answer SUBSCRIBER_ALREADY_EXISTS.
    const answers = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const res = await send('/v2/subscribers?failIfExists=true', { subscriberId: 'idem-race', email: 'race@example.com' }, key);
        return { status: res.status, replay: res.headers.get('idempotency-replay'), retryAfter: res.headers.get('retry-after'), echo: res.headers.get('idempotency-key'), body: await res.text() };
      }),
    );
    const original = answers.filter((a) => a.status === 201 && a.replay === null);
    expect(original).toHaveLength(1);
    for (const answer of answers) {
      expect(answer.echo).toBe(key);
      if (answer === original[0]) continue;
      if (answer.status === 409) {
        expect(answer.retryAfter).toBe('1');
        expect(JSON.parse(answer.body).code).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
      } else {
        expect(answer).toMatchObject({ status: 201, replay: 'true', body: original[0].body });
      }
    }
    const search = await (await svc.request('/v2/subscribers?subscriberId=idem-race')).json();
    expect(search.totalCount).toBe(1);
    expect(search.data[0].v ?? 0).toBe(0);
  });

  it('GET with the header is unaffected: nothing cached, nothing echoed', async () => {
    const key = uniqueKey('get');
    await send('/v2/subscribers', { subscriberId: 'idem-get', firstName: 'Before' }, undefined);
    const before = await svc.request('/v2/subscribers/idem-get', { headers: { 'idempotency-key': key } });
    expect(before.status).toBe(200);
    expect(before.headers.get('idempotency-key')).toBeNull();
    expect((await before.json()).data.firstName).toBe('Before');

    await send('/v2/subscribers/idem-get', { firstName: 'After' }, undefined, 'PATCH');
    const after = await svc.request('/v2/subscribers/idem-get', { headers: { 'idempotency-key': key } });
    expect(after.headers.get('idempotency-replay')).toBeNull();
    expect((await after.json()).data.firstName).toBe('After');
    expect(await record(key)).toBeUndefined();
  });

  it('DELETE and PUT ignore the header', async () => {
    const key = uniqueKey('delete');
    await send('/v2/subscribers', { subscriberId: 'idem-delete' }, undefined);
    const deleted = await svc.request('/v2/subscribers/idem-delete', { method: 'DELETE', headers: { 'idempotency-key': key } });
    expect(deleted.status).toBe(200);
    expect(deleted.headers.get('idempotency-key')).toBeNull();
    const again = await svc.request('/v2/subscribers/idem-delete', { method: 'DELETE', headers: { 'idempotency-key': key } });
    expect(again.status).toBe(404);
    expect(again.headers.get('idempotency-replay')).toBeNull();

    const put = await send('/v2/subscribers/idem-delete', { firstName: 'Put' }, key, 'PUT');
    expect(put.headers.get('idempotency-key')).toBeNull();
    expect(await record(key)).toBeUndefined();
    // The key was never claimed: a POST may use it with any body.
    expect((await send('/v2/subscribers', { subscriberId: 'idem-after-put' }, key)).status).toBe(201);
  });

  it('the @novu/api SDK (a key on every call) gets the original result back when it repeats a key', async () => {
    const novu = new Novu({ secretKey: svc.apiKey, serverURL: svc.url });
    const key = uniqueKey('sdk');
    const first = await novu.subscribers.create({ subscriberId: 'idem-sdk', firstName: 'Grace' }, true, key);
    const again = await novu.subscribers.create({ firstName: 'Grace', subscriberId: 'idem-sdk' }, true, key);
    expect(again.result).toEqual(first.result);
    // The SDK's own fresh key on every other call: each is a new request.
    const updated = await novu.subscribers.create({ subscriberId: 'idem-sdk', firstName: 'Hopper' });
    expect(updated.result.firstName).toBe('Hopper');
  });

  it('a request without the header is not recorded', async () => {
    const res = await send('/v2/subscribers', { subscriberId: 'idem-none' }, undefined);
    expect(res.status).toBe(201);
    expect(res.headers.get('idempotency-key')).toBeNull();
  });

  it('schedules the purge of expired keys', async () => {
    const { rows } = await db.query(`SELECT cron FROM pgboss.schedule WHERE name = 'idempotency-keys-purge'`);
    expect(rows).toEqual([{ cron: '* * * * *' }]);
  });
});

describe('idempotency keys when the organization has them disabled', () => {
  it('processes every request, header or not', async () => {
    const other = await startService();
    const pool = new pg.Pool({ connectionString: other.databaseUrl, max: 1 });
    try {
      // Before the first authenticated request, so no cached caller holds the old setting.
      await pool.query('UPDATE organizations SET idempotency_enabled = false');
      const post = () => other.request('/v2/subscribers?failIfExists=true', { method: 'POST', json: { subscriberId: 'off' }, headers: { 'idempotency-key': 'same' } });
      const first = await post();
      const second = await post();
      expect([first.status, second.status]).toEqual([201, 409]);
      expect(second.headers.get('idempotency-key')).toBeNull();
      expect((await second.json()).code).toBe('SUBSCRIBER_ALREADY_EXISTS');
      expect((await pool.query('SELECT count(*)::int AS n FROM idempotency_records')).rows[0].n).toBe(0);
    } finally {
      await pool.end();
      await other.dispose();
    }
  });
});
