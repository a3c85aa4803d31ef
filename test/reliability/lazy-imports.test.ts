import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DependencyLoadError } from '../../src/index.js';
import { ClientEvents } from '../../src/client/events/client-events.js';
import { LazyModule } from '../../src/client/pipeline/lazy-module.js';
import { Redactor } from '../../src/errors/redactor.js';
import { RequestPipeline, type PipelineCall } from '../../src/client/pipeline/pipeline.js';
import { resolveOptions } from '../../src/client/options/resolve-options.js';
import { GraphQLTransport } from '../../src/transport/graphql-transport.js';
import { grantCouponToMany } from '../../src/workflows/grant-to-many.js';
import { ScriptedGrants } from '../workflows/support/scripted-grants.js';

/** What a module loader throws when the process is out of file descriptors. */
const emfile = () => Object.assign(new Error("EMFILE: too many open files, open '/app/node_modules/p-retry/index.js'"), { code: 'EMFILE' });

/** A module whose first `failures` imports fail with EMFILE, then `load`; `attempts` counts the imports tried. */
function flakyModule<T>(name: string, failures: number, load: () => Promise<T>): { module: LazyModule<T>; attempts: () => number } {
  let attempts = 0;
  const module = new LazyModule<T>(name, async () => {
    attempts += 1;
    if (attempts <= failures) throw emfile();
    return load();
  });
  return { module, attempts: () => attempts };
}

/** Unhandled rejections seen while a test runs: there must be none. */
const unhandled: unknown[] = [];
const listener = (reason: unknown): void => void unhandled.push(reason);
beforeAll(() => void process.on('unhandledRejection', listener));
afterAll(() => void process.off('unhandledRejection', listener));
afterEach(() => {
  unhandled.length = 0;
});
/** Lets any stray rejection surface (unhandled rejections are reported after the microtask queue drains). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('a lazily imported module that fails to load (p-retry, the journal): a typed rejection of the call, never a crash', () => {
  it('LazyModule: a failed import is not kept; the next use imports again', async () => {
    const { module, attempts } = flakyModule('a-module', 1, async () => 'loaded');
    const context = { operation: 'request', label: 'run the request', redactor: new Redactor([]) };
    await expect(module.get(context, 'nothing ran')).rejects.toMatchObject({ name: 'DependencyLoadError', dependency: 'a-module', systemCode: 'EMFILE' });
    await expect(module.get(context, 'nothing ran')).resolves.toBe('loaded');
    await expect(module.get(context, 'nothing ran')).resolves.toBe('loaded');
    expect(attempts()).toBe(2);
  });

  it('p-retry: the call whose first attempt failed rejects with DependencyLoadError (p-retry, EMFILE), no unhandled rejection; the next call retries with it', async () => {
    const answers = [503, 503, 200, 200];
    const fetch: typeof globalThis.fetch = async () => {
      const status = answers.shift() ?? 200;
      return status === 200 ? Response.json({ data: { a: 1 } }) : new Response('busy', { status });
    };
    const options = resolveOptions({ apiKey: 'sk_live_lazy_imports', baseUrl: 'https://school.example', limits: false, retryBaseDelayMs: 1, maxRetryDelayMs: 2, fetch });
    const transport = new GraphQLTransport({ endpoint: options.endpoint, headers: {}, fetch, maxResponseBytes: options.maxResponseBytes });
    const pRetry = flakyModule('p-retry', 1, async () => (await import('p-retry')).default);
    const pipeline = new RequestPipeline(options, transport, undefined, new ClientEvents(), pRetry.module);
    const call = (): PipelineCall => ({
      signal: undefined, timeoutMs: 1_000, maxRetries: 2, headers: {}, priority: undefined, operation: 'request', callId: 'call_lazy', label: 'run the request',
      document: 'query { a }', variables: undefined, operationName: undefined, callerDocument: true, retry: 'idempotent', subscriptionReasons: false, progress: undefined,
    });

    const error = await pipeline.run(call(), ({ data }) => data).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DependencyLoadError);
    expect(error).toMatchObject({ dependency: 'p-retry', systemCode: 'EMFILE', operation: 'request', callId: 'call_lazy' });
    expect((error as Error).message).toBe(
      "Failed to run the request: p-retry could not be loaded (EMFILE), so the retries after the first attempt's HttpError could not start. Check the open-file limit (ulimit -n); the next call tries again.",
    );
    await expect(pipeline.run(call(), ({ data }) => data)).resolves.toEqual({ a: 1 });
    expect(pRetry.attempts()).toBe(2);
    await settle();
    expect(unhandled).toEqual([]);
  });

  describe('the journal of grantCouponToMany', () => {
    let dir = '';
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'lazy-journal-'));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('rejects the job with DependencyLoadError (journal) before any grant, no unhandled rejection; the next job loads it', async () => {
      const { module: journalModule } = flakyModule('journal', 1, () => import('../../src/workflows/journal.js'));
      const client = new ScriptedGrants();
      const journal = join(dir, 'grants.journal');
      const error = await grantCouponToMany(client, 'coupon-1', [{ email: 'ada@example.com' }], { journal }, { budget: undefined, journalModule }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DependencyLoadError);
      expect(error).toMatchObject({ dependency: 'journal', systemCode: 'EMFILE', operation: 'grantCouponToMany' });
      expect((error as Error).message).toContain('Failed to grant the coupon to many members: journal could not be loaded (EMFILE), so the job could not open its journal; nothing was sent.');
      expect(client.sent).toEqual([]);

      const next = grantCouponToMany(client, 'coupon-1', [{ email: 'ada@example.com' }], { journal }, { budget: undefined, journalModule });
      await client.passProbe();
      await expect(next).resolves.toMatchObject({ counts: { created: 1 } });
      await settle();
      expect(unhandled).toEqual([]);
    });
  });
});
