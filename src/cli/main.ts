#!/usr/bin/env node
/**
 * The `school-admin` command: bulk jobs against the admin API and the mock server.
 * Reads ADMIN_API_URL and ADMIN_API_KEY from the environment.
 */
import { buildProgram } from './program.js';
import { writeWrapped } from './support/text-wrap.js';

buildProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    writeWrapped(process.stderr, `school-admin: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
