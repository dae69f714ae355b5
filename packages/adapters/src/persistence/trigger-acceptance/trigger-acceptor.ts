import type { AcceptOutcome, RunInline, TriggerAcceptance } from '@herald/domain';
import type { Pool } from 'pg';
import type { PgBossDeliveryQueue } from '../../queue/pg-boss-delivery-queue';
import type { ChannelCredentialCipher } from '../../security/channel-credential-cipher';
import { newRowId } from '../row-ids';
import { GroupCommit } from './group-commit';
import type { PendingTrigger } from './pending-trigger';
import { RememberedRecipients } from './remembered-recipients';
import { TriggerWrite } from './trigger-write';

/**
 * Accepts triggers (`EventRepository.accept`): concurrent triggers are group-committed (one
 * statement, one queue insert, one WAL flush for many: `GroupCommit`); a trigger's first step runs
 * inline on its direct recipients, read or remembered (`runInline`, `RememberedRecipients`); the
 * triggers' subscriber objects are upserted and their events, notifications, jobs and the inline
 * steps' messages written (`TriggerWrite`).
 */
export class TriggerAcceptor {
  private readonly commits: GroupCommit<PendingTrigger, AcceptOutcome>;

  constructor(
    pool: Pool,
    queue: PgBossDeliveryQueue,
    private readonly channels: ChannelCredentialCipher,
    /** The longest a trigger waits for a batch in flight (one held up by a lock, say) before it goes beside it. */
    maxWaitMs?: number,
  ) {
    this.commits = new GroupCommit(new TriggerWrite(pool, queue, new RememberedRecipients(), channels), maxWaitMs);
  }

  accept(given: TriggerAcceptance, runInline?: RunInline): Promise<AcceptOutcome> {
    // Channel credentials are sealed before anything reads the objects, so the statements merge,
    // compare and store ciphertext; objects without channels (the common case) cost only this test.
    const acceptance = given.upserts.some((u) => u.channels) ? this.sealed(given) : given;
    return new Promise((resolve, reject) => {
      this.commits.add({ acceptance, eventId: newRowId(), runInline, inlineIds: new Map(), resolve, reject });
    });
  }

  private sealed(acceptance: TriggerAcceptance): TriggerAcceptance {
    return { ...acceptance, upserts: acceptance.upserts.map((u) => (u.channels ? { ...u, channels: this.channels.seal(u.channels) } : u)) };
  }
}
