import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cliNodeArgs } from './cli-command.js';
import { REPO } from './cli-process.js';

const PTY_RUN = fileURLToPath(new URL('./pty-run.py', import.meta.url));

/** Keys typed when the output (since the previous step) matches `waitFor`. */
export interface PtyStep {
  waitFor: string;
  delayMs?: number;
  send: string;
}

/** How a run in a terminal ended, and every byte it wrote to the terminal. */
export interface PtyRun {
  code: number | null;
  signal: number | null;
  /** Steps whose output never came. */
  stepsLeft: number;
  transcript: string;
}

/** Ctrl-C as typed at a terminal. */
export const CTRL_C = '\u0003';

/** Runs `school-admin <args>` in a pseudo-terminal `columns` wide (python3's pty module), typing `steps`. */
export function runCliInPty(args: readonly string[], options: PtyOptions): Promise<PtyRun> {
  return runInPty([process.execPath, ...cliNodeArgs(), ...args], options);
}

/** Options of {@link runInPty}. */
export interface PtyOptions {
  env: Record<string, string>;
  columns: number;
  steps?: PtyStep[];
  timeoutMs?: number;
}

/** Runs `argv` (from the repository root) in a pseudo-terminal `columns` wide, typing `steps`. */
export function runInPty(argv: readonly string[], options: PtyOptions): Promise<PtyRun> {
  const spec = {
    argv,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', TERM: 'xterm-256color', ...options.env },
    cwd: REPO,
    columns: options.columns,
    rows: 24,
    timeoutMs: options.timeoutMs ?? 60_000,
    steps: options.steps ?? [],
  };
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [PTY_RUN, JSON.stringify(spec)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => {
      try {
        const result = JSON.parse(out) as Omit<PtyRun, 'transcript'> & { transcript: string };
        resolve({ ...result, transcript: Buffer.from(result.transcript, 'base64').toString('utf8') });
      } catch {
        reject(new Error(`pty-run.py failed: ${err || out}`));
      }
    });
  });
}

const HIDE_CURSOR = '\u001b[?25l';
const SHOW_CURSOR = '\u001b[?25h';
const WRAP_OFF = '\u001b[?7l';
const WRAP_ON = '\u001b[?7h';

/** The terminal modes a transcript leaves behind (both true on a fresh terminal). */
export function terminalStateAfter(transcript: string): { cursorShown: boolean; wrapping: boolean } {
  return {
    cursorShown: transcript.lastIndexOf(HIDE_CURSOR) < transcript.lastIndexOf(SHOW_CURSOR) || !transcript.includes(HIDE_CURSOR),
    wrapping: transcript.lastIndexOf(WRAP_OFF) < transcript.lastIndexOf(WRAP_ON) || !transcript.includes(WRAP_OFF),
  };
}

/**
 * Every progress line drawn (a text with "created N"), as the terminal got it: the transcript cut
 * at carriage returns, newlines and cursor-to-column / clear-line sequences, other escape
 * sequences and the terminal's own echo of Ctrl-C ("^C") removed.
 */
export function progressLinesDrawn(transcript: string): string[] {
  return transcript
    .split(/\r|\n|\u001b\[[0-9;]*[GK]/u)
    .map((part) => part.replace(/\u001b\[[0-9;?]*[A-Za-z]/gu, '').replaceAll('^C', ''))
    .filter((text) => /created \d+/u.test(text));
}
