/**
 * A problem with the command line, the environment or an input file's shape: reported as
 * "school-admin: Failed to ...: reason. Remedy." with exit status 2, before anything is sent.
 */
export class CliUsageError extends Error {
  override name = 'CliUsageError';
}
