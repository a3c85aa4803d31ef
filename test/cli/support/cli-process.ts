import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cliNodeArgs } from './cli-command.js';

/** The repository root (the CLI runs from the working directory's sources, bundled for the run). */
export const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/** What a finished CLI run printed and how it ended. */
export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A CLI process still running, with its output so far. */
export interface CliProcess {
  child: ChildProcess;
  output(): { stdout: string; stderr: string };
  finished: Promise<CliRun>;
}

/**
 * Lines as wide as this are never wrapped: the width runs get unless `env` sets `COLUMNS`, so a
 * test of what a message says reads it whole. The layout at the default width (80 when not a
 * terminal) is checked by test/cli/layout.test.ts, which passes `COLUMNS: ''`.
 */
export const UNWRAPPED_COLUMNS = '1000';

/** Environment for a run: the parent's PATH and HOME, plus `env` (ADMIN_API_* are never inherited). */
function environment(env: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', NO_COLOR: '1', COLUMNS: UNWRAPPED_COLUMNS, ...env };
}

/** Starts `school-admin <args>` (stdout and stderr are pipes, so not a terminal). */
export function startCli(args: readonly string[], env: Record<string, string> = {}, cwd = REPO): CliProcess {
  const child = spawn(process.execPath, [...cliNodeArgs(), ...args], { cwd, env: environment(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const finished = new Promise<CliRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, output: () => ({ stdout, stderr }), finished };
}

/** Runs `school-admin <args>` to completion. */
export function runCli(args: readonly string[], env: Record<string, string> = {}, cwd = REPO): Promise<CliRun> {
  return startCli(args, env, cwd).finished;
}
