import { AdminClient } from '../../client/facade/admin-client.js';
import { ADMIN_ENDPOINT_PATH, adminEndpointOf, type BaseUrlProblem } from '../../client/options/base-url.js';
import type { PacingOptions, RateLimitBudget } from '../../client/options/options.js';
import { InvalidInputError } from '../../errors/invalid-input-error.js';
import { CliUsageError } from './cli-usage-error.js';

/** The environment variables every command that calls the API reads. */
export const API_ENVIRONMENT_HELP = `Environment:
  ADMIN_API_URL   the school's base URL, without /admin/graphql (school-admin adds it)
  ADMIN_API_KEY   the school's secret API key (sk_live_...); never printed`;

/**
 * The client of the API named by ADMIN_API_URL and ADMIN_API_KEY, paced under `rateLimit` when given,
 * with `pacing`'s store and reserve (a bulk command's batch mode or shared store).
 *
 * @throws {CliUsageError} when a variable is missing or the URL is unusable (the key is never echoed).
 */
export function clientFromEnvironment(command: string, options: { rateLimit?: RateLimitBudget; pacing?: Pick<PacingOptions, 'interactiveReserve' | 'store'>; env?: NodeJS.ProcessEnv } = {}): AdminClient {
  const env = options.env ?? process.env;
  const baseUrl = env['ADMIN_API_URL']?.trim();
  const apiKey = env['ADMIN_API_KEY']?.trim();
  if (baseUrl === undefined || baseUrl === '') {
    throw new CliUsageError(
      `Failed to start ${command}: ADMIN_API_URL is not set. Export the school's base URL, e.g. export ADMIN_API_URL=https://school.example (or run school-admin mock-server and use the URL it prints).`,
    );
  }
  if (apiKey === undefined || apiKey === '') {
    throw new CliUsageError(`Failed to start ${command}: ADMIN_API_KEY is not set. Export the school's secret API key (sk_live_...) as ADMIN_API_KEY.`);
  }
  const checked = adminEndpointOf(baseUrl, false);
  if ('problem' in checked) throw new CliUsageError(`Failed to start ${command}: ${urlProblemText(checked.problem)}`);
  try {
    return new AdminClient({
      apiKey,
      baseUrl,
      userAgent: 'school-admin-cli',
      limits: { ...options.pacing, ...(options.rateLimit === undefined ? {} : { mutations: options.rateLimit }) },
    });
  } catch (error) {
    if (error instanceof InvalidInputError) {
      const source = ENVIRONMENT_SOURCES[error.field] ?? `the option ${error.field}`;
      throw new CliUsageError(`Failed to start ${command}: ${source} was refused. Check ADMIN_API_URL, ADMIN_API_KEY and --rate-limit.`);
    }
    throw error;
  }
}

/** Client options by where the command line takes them from. */
const ENVIRONMENT_SOURCES: Record<string, string> = { apiKey: 'ADMIN_API_KEY', baseUrl: 'ADMIN_API_URL', 'limits.mutations.limit': '--rate-limit', 'limits.mutations.windowMs': '--rate-limit' };

/** A problem with ADMIN_API_URL, worded for the shell (the value is not echoed: a key pasted there by mistake must not be printed). */
function urlProblemText(problem: BaseUrlProblem): string {
  const example = 'e.g. export ADMIN_API_URL=https://school.example';
  switch (problem.kind) {
    case 'missing':
    case 'not_a_url':
      return `ADMIN_API_URL is not a valid URL. Export the school's base URL, ${example}.`;
    case 'not_http':
      return `ADMIN_API_URL must start with https:// (it starts with ${problem.protocol}). Export the school's base URL, ${example}.`;
    case 'credentials':
      return 'ADMIN_API_URL must not contain a user name or password. Put the key in ADMIN_API_KEY only.';
    case 'insecure_http':
      return 'ADMIN_API_URL uses plain http to another machine, which would send the key unencrypted. Use https (plain http is accepted for 127.0.0.1 and localhost only).';
    case 'endpoint_path':
      return `ADMIN_API_URL ends with ${ADMIN_ENDPOINT_PATH}, the path school-admin adds itself. Drop the path: export ADMIN_API_URL=${problem.base}`;
  }
}
