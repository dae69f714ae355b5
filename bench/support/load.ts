import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchService } from './herald';

export interface LoadResult {
  total: number;
  perSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** CPU seconds the load generator's process used, from its start to its report. */
  cpuSeconds: number;
}

/**
 * Triggers `workflow` for `subscriberId` from a separate process (trigger-load.mjs, autocannon), so
 * the load generator's CPU is not counted as the service's. Asynchronous: the service runs in this
 * process and must keep answering.
 */
export async function runTriggerLoad(
  svc: Pick<BenchService, 'url' | 'apiKey'>,
  workflow: string,
  subscriberId: string,
  seconds: number,
  connections: number,
  options: { overallRate?: number; amount?: number; keys?: number; attributes?: Record<string, unknown> } = {},
): Promise<LoadResult> {
  const script = fileURLToPath(new URL('./trigger-load.mjs', import.meta.url));
  const child = spawn(process.execPath, [script, svc.url, svc.apiKey, workflow, subscriberId, String(seconds), String(connections), JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`load generator exited with ${code}`);
  const result = JSON.parse(out.trim().split('\n').pop()!) as LoadResult;
  // autocannon counts the requests still in flight when the time is up as errors: at most one per connection.
  if (result.non2xx || result.errors > connections) throw new Error(`load saw ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  return result;
}
