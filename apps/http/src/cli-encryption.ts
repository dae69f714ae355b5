import { encryptionKeyStatus, rotateEncryptionKeys, type Database, type EncryptionKeyring } from '@herald/adapters';

export const ENCRYPTION_USAGE = `  encryption status                         how many stored secrets each key id encrypted, per table
                                            (the current key's id marked): a previous key can be dropped
                                            once no value names it
  encryption rotate                         re-encrypt every stored secret under HERALD_ENCRYPTION_KEY
                                            (read with HERALD_ENCRYPTION_KEYS_PREVIOUS); safe to run
                                            again, and beside the service`;

/** `pnpm herald encryption status|rotate` (docs/operations.md#rotating-the-encryption-key); false: not one of them. */
export async function encryptionCommand(db: Database, ring: EncryptionKeyring, action: string | undefined): Promise<boolean> {
  if (action === 'status') {
    for (const s of await encryptionKeyStatus(db.pool)) {
      const key = s.key === ring.currentId ? `${s.key} (current)` : ring.key(s.key) ? `${s.key} (previous)` : s.key;
      console.log(`${s.table}.${s.column}\t${key}\t${s.values}`);
    }
    console.log(`Current key id: ${ring.currentId}`);
    return true;
  }
  if (action !== 'rotate') return false;
  let unfinished = 0;
  for (const r of await rotateEncryptionKeys(db.pool, ring)) {
    console.log(`${r.table}.${r.column}\tre-encrypted ${r.rewritten}\tleft ${r.left}\tunreadable ${r.unreadable.length}`);
    for (const id of r.unreadable) console.log(`  ${r.table} ${id}: no configured key opens it (altered, or its key is not in HERALD_ENCRYPTION_KEYS_PREVIOUS)`);
    unfinished += r.left + r.unreadable.length;
  }
  console.log(unfinished ? `${unfinished} rows are not under the current key yet: run it again (after fixing what is unreadable).` : `Every stored secret is under key ${ring.currentId}: the previous keys can be dropped.`);
  return true;
}
