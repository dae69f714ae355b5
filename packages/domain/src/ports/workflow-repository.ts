import { token } from '../shared/token';
import type { Workflow, WorkflowChanges, WorkflowDraft, WorkflowOrderBy } from '../entities/workflow';
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
   * A bridge sync, in one transaction: creates or replaces each draft (matched by workflowId; a
   * step whose stepId stays keeps its internal id) and deletes the environment's `external`
   * workflows not among them. Throws CONFLICT when a draft's workflowId names a workflow of
   * another origin. Returns the drafts as written, in order, and the trigger identifiers removed.
   */
  syncExternal(environmentId: string, drafts: WorkflowDraft[]): Promise<{ workflows: Workflow[]; removed: string[] }>;
  /** Removes the workflow with its steps and subscriber preferences for it; false when not found. */
  delete(environmentId: string, id: string): Promise<boolean>;
  /**
   * Matching workflows with their steps, ordered (ties broken by id) and the total number of
   * matches. Without `page` every match is returned.
   */
  list(environmentId: string, filter: WorkflowFilter, order: WorkflowOrder, page?: OffsetPage): Promise<{ workflows: Workflow[]; totalCount: number }>;
}
