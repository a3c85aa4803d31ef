import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** What a finished command printed. */
export interface CommandOutput {
  stdout: string;
  stderr: string;
}

/**
 * The environment for nested npm and node runs: `npm test` exports `npm_*` variables (the
 * project's prefix, package and lifecycle) that would point a nested `npm pack` or `npm ci` back
 * at the project. Only the user's cache and registry settings are kept.
 */
export function childEnvironment(): NodeJS.ProcessEnv {
  const kept = new Set(['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig']);
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_') || kept.has(name.toLowerCase())));
}

/**
 * Runs a command to completion; a non-zero exit rejects with an error that shows what it printed.
 *
 * @example
 * ```ts
 * const { stdout } = await runCommand('npm', ['pack', '--json'], { cwd });
 * ```
 */
export async function runCommand(file: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<CommandOutput> {
  try {
    const { stdout, stderr } = await execFileAsync(file, args, {
      cwd: options.cwd,
      env: options.env ?? childEnvironment(),
      maxBuffer: 64 * 1024 * 1024,
      encoding: 'utf8',
    });
    return { stdout, stderr };
  } catch (error) {
    const failure = error as { code?: unknown; stdout?: string; stderr?: string };
    throw new Error(
      `Failed to run ${file} ${args.join(' ')} in ${options.cwd}: exit ${String(failure.code)}.\n--- stdout\n${failure.stdout ?? ''}\n--- stderr\n${failure.stderr ?? ''}`,
      { cause: error },
    );
  }
}
