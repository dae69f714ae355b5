/**
 * The creation time (ms since the epoch) a UUID version 7 carries in its first 48 bits, or null for
 * another version (rows made before the delivery tables took time-ordered ids).
 */
export function timeOfTimeOrderedId(id: string): number | null {
  if (id.length !== 36 || id[14] !== '7') return null;
  const ms = Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
  return Number.isFinite(ms) ? ms : null;
}
