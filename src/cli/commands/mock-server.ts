import { Command, InvalidArgumentError } from 'commander';
import type { RateLimitBudget } from '../../client/options/options.js';
import { createSimulator, DEMO_API_KEY, seedDemoSchool, startMockServer } from '../../testing/index.js';
import { demoSchoolFacts } from '../support/demo-school-facts.js';
import { helpText, layoutLines } from '../support/help-layout.js';
import { parseRateLimit } from '../support/rate-limit-option.js';
import { exitTwoOnUsageErrors } from '../support/run-action.js';
import { outputColumns } from '../support/text-wrap.js';

/** The help after the options: what the server prints, then the demo school's ids (the same in every fresh simulator). */
function helpAfter(): string {
  return [
    '',
    'On start it prints its URL, the two export lines that point the other commands (and the SDK) at it, and every id the README\'s examples need: coupon, courses, services, meetings, a member, a host and a subscription of the demo school, as listed here.',
    '',
    ...demoSchoolFacts(seedDemoSchool(createSimulator())),
    '',
    'Example (a 20 s window, so bulk jobs finish sooner):',
    '  $ school-admin mock-server --rate-limit 200/20s',
    '',
    'A self-hosted server that states its budget on every answer (the SDK then paces at it from the first answers on):',
    '  $ school-admin mock-server --rate-limit 60/10s --rate-limit-headers every-answer',
  ].join('\n');
}

/** `school-admin mock-server`: the simulator on loopback, for trying the SDK and the CLI without a key. */
export function mockServerCommand(): Command {
  const command = new Command('mock-server')
    .description('Run the stateful simulator of the admin API on loopback, with a demo school whose ids it prints')
    .option('--port <port>', 'port to listen on (0 = a free one)', parsePort, 4010)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--seed <seed>', 'initial data: demo or empty', parseSeed, 'demo')
    .option('--rate-limit <n/window>', 'mutation limit of the simulated server, as a self-hosted deployment may set it (default: 200/60s)', parseRateLimit)
    .option(
      '--rate-limit-headers <when>',
      'when answers state the budget: on-429 (the spec: X-RateLimit-Limit with a 429) or every-answer (RateLimit-Policy, RateLimit, X-RateLimit-Limit and X-RateLimit-Window on every answer, as a self-hosted server may)',
      parseRateLimitHeaders,
      'on-429',
    )
    .addHelpText('after', (context) => helpText(helpAfter())(context))
    .action(async (options: { port: number; host: string; seed: 'demo' | 'empty'; rateLimit?: RateLimitBudget; rateLimitHeaders: 'on-429' | 'every-answer' }) => {
      const simulator = createSimulator({ rateLimitHeaders: options.rateLimitHeaders, ...(options.rateLimit === undefined ? {} : { limits: { mutations: options.rateLimit } }) });
      const demo = options.seed === 'demo' ? seedDemoSchool(simulator) : undefined;
      const server = await startMockServer({ port: options.port, host: options.host, simulator });
      const banner = [
        `Mock admin API listening on ${server.url} (POST /admin/graphql; seed: ${options.seed}${options.rateLimit === undefined ? '' : `, mutations: ${options.rateLimit.limit} per ${options.rateLimit.windowMs} ms`}${options.rateLimitHeaders === 'every-answer' ? '; the budget stated on every answer' : ''})`,
        ...(demo === undefined ? [] : [...demoSchoolFacts(demo), 'Try it with:', `  export ADMIN_API_URL=${server.url}`, `  export ADMIN_API_KEY=${DEMO_API_KEY}`]),
        'Press Ctrl-C to stop.',
      ];
      process.stdout.write(`${layoutLines(banner.join('\n'), outputColumns(process.stdout))}\n`);
      const stop = (): void => {
        void server.close().then(() => process.exit(0));
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
  return exitTwoOnUsageErrors(command);
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new InvalidArgumentError('expected a port number between 0 and 65535');
  return port;
}

function parseRateLimitHeaders(value: string): 'on-429' | 'every-answer' {
  if (value !== 'on-429' && value !== 'every-answer') throw new InvalidArgumentError('expected on-429 or every-answer');
  return value;
}

function parseSeed(value: string): 'demo' | 'empty' {
  if (value !== 'demo' && value !== 'empty') throw new InvalidArgumentError('expected demo or empty');
  return value;
}
