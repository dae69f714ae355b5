import { token } from '../shared/token';

export const ThrottleRepository = token<ThrottleRepository>('ThrottleRepository');

/** A job that reached a throttle step, counted in one fixed window. */
export interface ThrottleEntry {
  jobId: string;
  environmentId: string;
  workflowId: string;
  /** The subscriber's internal id. */
  subscriberId: string;
  /** The value of the step's throttleKey in this job's payload; '' without one. */
  throttleKey: string;
  windowStart: Date;
  /** Where the window closes: windowStart plus the step's length. */
  windowEnd: Date;
}

export interface ThrottleRepository {
  /**
   * Counts each job into its window (subscriber, workflow, key, window start) atomically and returns
   * its place there (1 for the first), in order of the entries. A job counted before keeps its place.
   */
  admit(entries: ThrottleEntry[]): Promise<number[]>;
  /**
   * Deletes the windows that closed before `windowsClosedBefore` and the admissions made before
   * `admittedBefore` (a job's place only matters while its throttle step might run again); returns
   * how many rows went.
   */
  purge(windowsClosedBefore: Date, admittedBefore: Date): Promise<number>;
}
