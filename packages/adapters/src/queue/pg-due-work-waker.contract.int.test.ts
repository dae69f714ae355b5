import { deliveryObserverContract } from '@herald/domain/testing/delivery-observer-contract';
import { afterAll } from 'vitest';
import { useTestDatabase } from '../testing/use-test-database';
import { PgDueWorkWaker } from './pg-due-work-waker';

const database = useTestDatabase();
const wakers: PgDueWorkWaker[] = [];
afterAll(async () => {
  for (const waker of wakers) await waker.stop();
});

deliveryObserverContract('due-work waker', async () => {
  const waker = new PgDueWorkWaker(database.db.pool);
  wakers.push(waker);
  await waker.start(async () => undefined);
  return waker;
});
