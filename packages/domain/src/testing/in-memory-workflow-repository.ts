import { randomUUID } from 'node:crypto';
import { crossesOrigin, originConflict, type Workflow, type WorkflowChanges, type WorkflowDraft, type WorkflowOrigin } from '../entities/workflow';
import { DomainError } from '../errors';
import type { OffsetPage, WorkflowFilter, WorkflowOrder, WorkflowRepository } from '../ports/workflow-repository';
import { InMemoryStore } from './in-memory-store';

/** A fake for domain tests, with the Prisma adapter's contract (see the port's comments). */
export class InMemoryWorkflowRepository implements WorkflowRepository {
  private tick = 0;

  constructor(readonly store = new InMemoryStore()) {}

  get rows(): Map<string, Workflow> {
    return this.store.workflows;
  }

  // Strictly increasing timestamps keep ordering tests deterministic.
  private now(): Date {
    return new Date(Date.UTC(2026, 0, 1) + ++this.tick * 1000);
  }

  private clone(w: Workflow): Workflow {
    return structuredClone(w);
  }

  private taken(environmentId: string, workflowId: string, except?: string): boolean {
    return [...this.rows.values()].some((w) => w.environmentId === environmentId && w.workflowId === workflowId && w.id !== except);
  }

  async create(environmentId: string, draft: WorkflowDraft): Promise<Workflow> {
    if (this.taken(environmentId, draft.workflowId)) {
      throw new DomainError('WORKFLOW_ALREADY_EXISTS', `Workflow '${draft.workflowId}' already exists`);
    }
    const now = this.now();
    const { origin = 'novu-cloud', steps, ...attributes } = draft;
    const workflow: Workflow = {
      id: randomUUID(),
      environmentId,
      ...attributes,
      origin,
      lastTriggeredAt: null,
      lastPublishedAt: null,
      createdAt: now,
      updatedAt: now,
      steps: steps.map((s) => ({ ...s, id: randomUUID() })),
    };
    this.rows.set(workflow.id, workflow);
    return this.clone(workflow);
  }

  async find(environmentId: string, reference: string): Promise<Workflow | null> {
    const all = [...this.rows.values()].filter((w) => w.environmentId === environmentId);
    const found = all.find((w) => w.workflowId === reference) ?? all.find((w) => w.id === reference);
    return found ? this.clone(found) : null;
  }

  async replace(environmentId: string, id: string, draft: WorkflowDraft): Promise<Workflow | null> {
    const current = this.rows.get(id);
    if (!current || current.environmentId !== environmentId) return null;
    if (this.taken(environmentId, draft.workflowId, id)) {
      throw new DomainError('WORKFLOW_ALREADY_EXISTS', `Workflow '${draft.workflowId}' already exists`);
    }
    const ids = new Map(current.steps.map((s) => [s.stepId, s.id]));
    const { origin = current.origin, steps, ...attributes } = draft;
    const next: Workflow = {
      ...current,
      ...attributes,
      origin,
      updatedAt: this.now(),
      steps: steps.map((s) => ({ ...s, id: ids.get(s.stepId) ?? randomUUID() })),
    };
    this.rows.set(id, next);
    return this.clone(next);
  }

  async update(environmentId: string, id: string, changes: WorkflowChanges): Promise<Workflow | null> {
    const current = this.rows.get(id);
    if (!current || current.environmentId !== environmentId) return null;
    const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    const next = { ...current, ...defined, updatedAt: this.now() };
    this.rows.set(id, next);
    return this.clone(next);
  }

  async writeAll(environmentId: string, origin: WorkflowOrigin, drafts: WorkflowDraft[], options: { prune?: boolean } = {}) {
    const mine = [...this.rows.values()].filter((w) => w.environmentId === environmentId);
    const byIdentifier = new Map(mine.map((w) => [w.workflowId, w]));
    // Every check before the first write: all or none, as the SQL transaction.
    for (const draft of drafts) {
      const existing = byIdentifier.get(draft.workflowId);
      if (existing && crossesOrigin(existing.origin, origin)) throw originConflict(draft.workflowId, existing.origin);
    }
    const workflows: Workflow[] = [];
    const created: string[] = [];
    for (const draft of drafts) {
      const current = byIdentifier.get(draft.workflowId);
      if (!current) created.push(draft.workflowId);
      workflows.push(current ? (await this.replace(environmentId, current.id, { ...draft, origin }))! : await this.create(environmentId, { ...draft, origin }));
    }
    const removed = options.prune ? mine.filter((w) => w.origin === origin && !drafts.some((d) => d.workflowId === w.workflowId)) : [];
    for (const w of removed) {
      this.store.cascadeWorkflow(w.id);
      this.rows.delete(w.id);
    }
    return { workflows, created, removed: removed.map((w) => w.workflowId) };
  }

  async delete(environmentId: string, id: string): Promise<boolean> {
    const current = this.rows.get(id);
    if (!current || current.environmentId !== environmentId) return false;
    this.store.cascadeWorkflow(id);
    return this.rows.delete(id);
  }

  async list(environmentId: string, filter: WorkflowFilter, order: WorkflowOrder, page?: OffsetPage) {
    const query = filter.query?.toLowerCase();
    const matches = [...this.rows.values()]
      .filter((w) => w.environmentId === environmentId)
      .filter((w) => !query || w.name.toLowerCase().includes(query) || w.workflowId.toLowerCase().includes(query))
      .filter((w) => !filter.tags?.length || w.tags.some((t) => filter.tags!.includes(t)))
      .sort((a, b) => {
        const [x, y] = [a[order.orderBy], b[order.orderBy]];
        // Never-triggered workflows come last in either direction.
        if ((x === null) !== (y === null)) return x === null ? 1 : -1;
        const cmp = x !== null && y !== null && x < y ? -1 : x !== null && y !== null && x > y ? 1 : a.id.localeCompare(b.id);
        return order.orderDirection === 'ASC' ? cmp : -cmp;
      });
    const slice = page ? matches.slice(page.offset, page.offset + page.limit) : matches;
    return { workflows: slice.map((w) => this.clone(w)), totalCount: matches.length };
  }
}
