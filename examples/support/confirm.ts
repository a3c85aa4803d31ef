/**
 * Before the demo changes a real school: say what it will do, then ask (on a terminal) or require
 * `--yes` (anywhere else). Nothing is sent before the answer.
 */
import { createInterface } from 'node:readline/promises';

/** What the person running the demo decided. */
export type Consent = 'go' | 'declined' | 'refused';

/** Options of {@link askBeforeSideEffects}. */
export interface ConsentOptions {
  /** `--yes` was given: go without asking. */
  yes: boolean;
  input?: NodeJS.ReadStream;
  output?: NodeJS.WriteStream;
}

/**
 * Prints `effects` (one per line) and returns `go` after `--yes` or a "yes" typed at a terminal,
 * `declined` after any other answer, and `refused` when there is no terminal to ask and no `--yes`
 * (a script or CI must say so explicitly).
 */
export async function askBeforeSideEffects(target: string, effects: readonly string[], options: ConsentOptions): Promise<Consent> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  output.write(`This demo runs against ${target}, a real server. It will:\n${effects.map((effect) => `  - ${effect}`).join('\n')}\nNothing is undone at the end.\n`);
  if (options.yes) return 'go';
  if (input.isTTY !== true || output.isTTY !== true) return 'refused';
  const prompt = createInterface({ input, output });
  try {
    const answer = await prompt.question('Type "yes" to go on, anything else to stop: ');
    return answer.trim().toLowerCase() === 'yes' ? 'go' : 'declined';
  } finally {
    prompt.close();
  }
}
