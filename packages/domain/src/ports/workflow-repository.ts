import { token } from '../shared/token';
import type { Workflow, WorkflowChanges, WorkflowDraft, WorkflowOrderBy, WorkflowOrigin } from '../entities/workflow';
import type { OrderDirection } from '../shared/pagination';

export const WorkflowRepository = token<WorkflowRepository>('WorkflowRepository');

export interface WorkflowFilter {
  /** Case-insensitive substring of the name or the trigger identifier. */
  query?: string;
  /** Workflows carrying at least one of these tags. */
  tags?: string[];
}

export interface WorkflowOrder {
  orderBy: WorkflowOrderBy;
  orderDirection: OrderDirection;
}

export interface OffsetPage {
  offset: number;
  limit: number;
}

export interface WrittenWorkflows {
  workflows: Workflow[];
  /** Trigger identifiers of the drafts that did not exist before. */
  created: string[];
  /** Trigger identifiers of the workflows `prune` deleted. */
  removed: string[];
}

export interface WorkflowRepository {
  /**
   * Inserts the workflow and its steps (in the given order) in one transaction.
   * Throws DomainError WORKFLOW_ALREADY_EXISTS when the environment has that workflowId.
   */
  create(environmentId: string, draft: WorkflowDraft): Promise<Workflow>;
  /** By trigger identifier first, then by internal id; null when neither matches in the environment. */
  find(environmentId: string, reference: string): Promise<Workflow | null>;
  /**
   * Replaces the attributes and the whole step list in one transaction. A step whose stepId stays
   * keeps its internal id; steps no longer listed are removed. null when the workflow is gone;
   * throws WORKFLOW_ALREADY_EXISTS when a changed workflowId is taken.
   */
  replace(environmentId: string, id: string, draft: WorkflowDraft): Promise<Workflow | null>;
  /** Applies the defined attributes (steps untouched); null when not found. */
  update(environmentId: string, id: string, changes: WorkflowChanges): Promise<Workflow | null>;
  /**
   * Writes a set of workflows of one origin in one transaction, all or none (a bridge sync, an
   * import of workflow files): creates or replaces each draft by workflowId (drafts name distinct
   * workflows; a step whose stepId stays keeps its internal id). Throws CONFLICT
   * (originConflict), writing nothing, when a draft names a workflow from the other side of
   * the code/API line (crossesOrigin). With `prune`, the environment's
   * workflows of that origin not among the drafts are deleted. Returns the workflows as written, in
   * order, the identifiers that were new, and those removed.
   */
  writeAll(environmentId: string, origin: WorkflowOrigin, drafts: WorkflowDraft[], options?: { prune?: boolean }): Promise<WrittenWorkflows>;
  /** Removes the workflow with its steps and subscriber preferences for it; false when not found. */
  delete(environmentId: string, id: string): Promise<boolean>;
  /**
   * Matching workflows with their steps, ordered (ties broken by id) and the total number of
   * matches. Without `page` every match is returned.
   */
  list(environmentId: string, filter: WorkflowFilter, order: WorkflowOrder, page?: OffsetPage): Promise<{ workflows: Workflow[]; totalCount: number }>;
}
