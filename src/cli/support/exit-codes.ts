/** Exit statuses of every `school-admin` command. */
export const EXIT_CODES = Object.freeze({
  /** Every row succeeded (or there was nothing to do). */
  ok: 0,
  /** At least one row failed or was invalid, or the job stopped on an error. */
  failed: 1,
  /** The command line or the environment is unusable (nothing was sent). */
  usage: 2,
  /** Stopped by Ctrl-C (SIGINT); the journal is consistent and the run can be resumed. */
  interrupted: 130,
});
