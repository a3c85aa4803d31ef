import { AdminClient } from '../../client/admin-client.js';
import type { RateLimitBudget } from '../../client/options.js';
import { InvalidInputError } from '../../errors/invalid-input-error.js';
import { CliUsageError } from './cli-usage-error.js';

/** The environment variables every command that calls the API reads. */
export const API_ENVIRONMENT_HELP = `Environment:
  ADMIN_API_URL   base URL of the school's admin API (requests go to $ADMIN_API_URL/admin/graphql)
  ADMIN_API_KEY   the school's secret API key (sk_live_...); never printed`;

/**
 * The client of the API named by ADMIN_API_URL and ADMIN_API_KEY, paced under `rateLimit` when given.
 *
 * @throws {CliUsageError} when a variable is missing or the URL is unusable (the key is never echoed).
 */
export function clientFromEnvironment(command: string, options: { rateLimit?: RateLimitBudget; env?: NodeJS.ProcessEnv } = {}): AdminClient {
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
  try {
    return new AdminClient({
      apiKey,
      baseUrl,
      userAgent: 'school-admin-cli',
      ...(options.rateLimit === undefined ? {} : { limits: { mutations: options.rateLimit } }),
    });
  } catch (error) {
    if (error instanceof InvalidInputError) throw new CliUsageError(`${error.message.replace(/\.$/u, '')} (check ADMIN_API_URL and ADMIN_API_KEY).`);
    throw error;
  }
}
