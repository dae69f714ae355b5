import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import type { SchemaEngine } from '@prisma/schema-engine-wasm';

const require = createRequire(import.meta.url);

let lastPanic: string | undefined;

/**
 * Node 20 cannot `import` a .wasm module (the package's entry point does), so this does what that
 * entry point does by hand: instantiate the bytes with the JS glue as the import object.
 */
export async function loadSchemaEngine(): Promise<typeof SchemaEngine> {
  // The glue reports Rust panics here before trapping ("RuntimeError: unreachable").
  (globalThis as { PRISMA_WASM_PANIC_REGISTRY?: unknown }).PRISMA_WASM_PANIC_REGISTRY = {
    set_message(message: string) {
      lastPanic = message;
    },
  };
  const glue = await import('@prisma/schema-engine-wasm/schema_engine_bg');
  const gluePath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
  const bytes = await readFile(path.join(path.dirname(gluePath), 'schema_engine_bg.wasm'));
  // (The repo's TS lib settings have no WebAssembly typings: type the one call used.)
  const { WebAssembly: wasm } = globalThis as unknown as {
    WebAssembly: {
      instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: { exports: Record<string, unknown> } }>;
    };
  };
  const { instance } = await wasm.instantiate(bytes, { './schema_engine_bg.js': glue });
  glue.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  return glue.SchemaEngine;
}

export function engineError(error: unknown): Error {
  if (lastPanic) return new Error(`The schema engine panicked: ${lastPanic}`);
  if (error instanceof Error) {
    const code = (error as { code?: string }).code;
    // Drop the engine's Rust span trace ("   0: schema_engine_wasm::...") and JS stack.
    const message = error.message.replace(/\n\s+0: [\s\S]*$/, '').trimEnd();
    return new Error(code ? `${code}: ${message}` : message);
  }
  return new Error(String(error));
}
