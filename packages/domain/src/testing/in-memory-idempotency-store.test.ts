import { idempotencyStoreContract } from './idempotency-store-contract';
import { InMemoryIdempotencyStore } from './in-memory-idempotency-store';

idempotencyStoreContract('in memory', () => new InMemoryIdempotencyStore());
