import { randomUUID } from 'node:crypto';

let lastMs = -1;
let prefix = '';

/**
 * A new id for a delivery row (event, notification, inline job) made in the service: a UUID version 7
 * (RFC 9562), as the delivery tables' `uuidv7()` defaults make (see the migration
 * `time_ordered_delivery_ids`: time-ordered keys are appended to their indexes instead of written
 * to random pages). Its first 48 bits are the time in milliseconds, the version nibble is 7, and
 * the other 74 bits are random: node's random UUID (its version 4 nibble and its time bits
 * replaced). Ids of one millisecond are not ordered among themselves, which RFC 9562 allows.
 *
 * Written here rather than taken from the `uuid` package: its v7() took 0.7-3 us an id (versions
 * 11-14, node 20), this 0.4-0.5 us and node's randomUUID 0.25 us, and a fan-out makes two ids per
 * recipient.
 */
export function newRowId(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    const hex = ms.toString(16).padStart(12, '0');
    prefix = `${hex.slice(0, 8)}-${hex.slice(8)}-7`;
  }
  // randomUUID(): xxxxxxxx-xxxx-4xxx-Nxxx-xxxxxxxxxxxx; from index 15 on: xxx-Nxxx-xxxxxxxxxxxx.
  return prefix + randomUUID().slice(15);
}
