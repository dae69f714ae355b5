import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { AesGcmCredentialCipher, PrismaIntegrationRepository, PrismaTenancyRepository, PrismaWorkflowRepository, type Database } from '@herald/adapters';
import { DomainError, formatDiff, PromoteWorkflow, WorkflowFiles, type Environment, type WorkflowInput } from '@herald/domain';

export const WORKFLOWS_USAGE = `  workflows promote <workflowId> [--environment <from>] [--to <slug|id>] [--yes]
                                            show what promoting to Production changes, then promote
                                            (asks first unless --yes; Production changes only this way)
  workflows export [--environment] [--dir <dir>]   write the API-defined workflows as <dir>/<workflowId>.json
  workflows import [--environment] [--dir <dir>]   create or replace workflows from <dir>/*.json`;

export interface WorkflowsCommand {
  action: string | undefined;
  target: string | undefined;
  environment: Environment;
  to?: string;
  dir: string;
  yes: boolean;
}

async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

/** `pnpm herald workflows ...`; false when the action is not one of them. */
export async function workflowsCommand(db: Database, cipher: AesGcmCredentialCipher, cmd: WorkflowsCommand): Promise<boolean> {
  const workflows = new PrismaWorkflowRepository(db.prisma);
  const tenancy = new PrismaTenancyRepository(db.prisma, cipher);
  const dir = resolve(cmd.dir);
  if (cmd.action === 'promote' && cmd.target) {
    const promote = new PromoteWorkflow(workflows, tenancy, new PrismaIntegrationRepository(db.prisma, cipher));
    const input = { sourceEnvironmentId: cmd.environment.id, workflowId: cmd.target, targetEnvironmentId: cmd.to };
    const plan = await promote.plan(input);
    console.log(`Promote '${plan.source.workflowId}' from ${cmd.environment.name} to ${plan.target.name}: ${plan.action}`);
    for (const line of formatDiff(plan.changes)) console.log(`  ${line}`);
    if (plan.action === 'unchanged') return true;
    if (!cmd.yes && !(await confirm(`Write this into ${plan.target.name}? [y/N] `))) {
      console.log(`Not promoted${process.stdin.isTTY ? '' : ' (no terminal to ask: pass --yes)'}.`);
      return true;
    }
    await promote.execute(input);
    console.log(`Promoted: ${plan.target.name} now runs '${plan.source.workflowId}' as shown above.`);
    return true;
  }
  const files = new WorkflowFiles(workflows, tenancy);
  if (cmd.action === 'export') {
    mkdirSync(dir, { recursive: true });
    const exported = await files.export(cmd.environment.id);
    for (const w of exported) writeFileSync(join(dir, `${w.workflowId}.json`), `${JSON.stringify(w, null, 2)}\n`);
    console.log(`Wrote ${exported.length} workflow file(s) of ${cmd.environment.name} to ${dir}`);
    return true;
  }
  if (cmd.action === 'import') {
    const names = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
    const read = names.map((name) => {
      try {
        return { name, content: JSON.parse(readFileSync(join(dir, name), 'utf8')) as WorkflowInput };
      } catch (error) {
        throw new DomainError('BAD_REQUEST', `${name}: not JSON (${(error as Error).message})`);
      }
    });
    const { created, updated } = await files.import(cmd.environment.id, read);
    console.log(`Imported into ${cmd.environment.name}: ${created.length} created (${created.join(', ') || '-'}), ${updated.length} replaced (${updated.join(', ') || '-'})`);
    return true;
  }
  return false;
}
