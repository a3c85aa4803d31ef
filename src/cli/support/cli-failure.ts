/**
 * A job that stopped on a problem the command has worded for its user (not a usage error):
 * reported as "school-admin: Failed to ...: reason. Remedy." with exit status 1.
 */
export class CliFailure extends Error {
  override name = 'CliFailure';
}
