import { InvalidInputError } from '../errors/invalid-input-error.js';
import type { openJournal as openFileJournal } from './journal.js';

/**
 * What `import('#journal')` resolves to in worker and browser bundles (package.json `imports`,
 * conditions `workerd`, `worker`, `browser`, `edge-light`): the journal needs a file system
 * (node:fs, node:zlib) that these runtimes lack. `grantCouponToMany` opens the journal before it
 * sends anything, so this refusal comes before the first grant: nothing is sent or lost.
 */
export const openJournal: typeof openFileJournal = (path) =>
  Promise.reject(
    new InvalidInputError(
      `Failed to open the journal ${path}: this runtime has no file system for it (the journal needs Node.js, Deno or Bun). ` +
        'Run grantCouponToMany without `journal` here, or run the job on a server runtime.',
      { operation: 'openJournal', field: 'journal' },
    ),
  );
