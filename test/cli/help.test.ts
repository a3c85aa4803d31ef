import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli-process.js';

describe.concurrent('school-admin --help for each command', () => {
  it.each([
    ['grant-coupon', ['--coupon <id>', '--csv <file>', '--journal <file>', '--report <file>', 'Exit status', 'ADMIN_API_URL', 'Examples:']],
    ['create-slots', ['--service <id>', '--tz <zone>', '--from <date>', '--to <date>', '--weekly <pattern>', '--capacity <n>', '--hosting <type>', '--host-email <email>', '--join-url <url>', '--title <text>', '--dry-run', '--atomic', 'Examples:']],
    ['cancel-meetings', ['--ids <file>', '--atomic', '--report <file>', 'already_canceled', 'Examples:']],
    ['mock-server', ['--port <port>', '--seed <seed>', '--rate-limit <n/window>']],
  ])('%s --help exits 0 and documents its options', async (command, expected) => {
    const run = await runCli([command, '--help']);
    expect(run.code).toBe(0);
    for (const text of expected) expect(run.stdout).toContain(text);
  });

  it('the program lists every command', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    for (const command of ['grant-coupon', 'create-slots', 'cancel-meetings', 'mock-server']) expect(run.stdout).toContain(command);
  });
});

describe.concurrent('usage errors exit with status 2 and a "Failed to ...: reason. Remedy." line, before anything is sent', () => {
  it('a missing required option', async () => {
    const run = await runCli(['grant-coupon', '--csv', 'members.csv']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("required option '--coupon <id>' not specified");
  });

  it('a malformed --rate-limit', async () => {
    const run = await runCli(['cancel-meetings', '--ids', 'x.txt', '--rate-limit', 'fast']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('expected <requests>/<window>');
  });

  it('ADMIN_API_URL or ADMIN_API_KEY missing', async () => {
    const noUrl = await runCli(['grant-coupon', '--coupon', 'c', '--csv', 'members.csv']);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toMatch(/^school-admin: Failed to start grant-coupon: ADMIN_API_URL is not set\. Export /mu);
    const noKey = await runCli(['cancel-meetings', '--ids', 'ids.txt'], { ADMIN_API_URL: 'http://127.0.0.1:9' });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('ADMIN_API_KEY is not set');
  });

  it('an unusable ADMIN_API_URL, without echoing the key', async () => {
    const key = 'sk_live_secret_never_printed_123';
    const run = await runCli(['grant-coupon', '--coupon', 'c', '--csv', 'members.csv'], { ADMIN_API_URL: 'not a url', ADMIN_API_KEY: key });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('ADMIN_API_URL is not a valid URL');
    expect(run.stderr + run.stdout).not.toContain(key);
  });
});
