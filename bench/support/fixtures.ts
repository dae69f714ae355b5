// Benchmarks set up state the same way the black-box tests do.
export { insertWorkflowWithSteps, queryDatabase as query } from '../../test/support/workflow-rows';
export { waitFor } from '../../test/support/wait';
