#!/usr/bin/env node
/**
 * The `school-admin` command: bulk jobs against the admin API and the mock server.
 * Reads ADMIN_API_URL and ADMIN_API_KEY from the environment.
 */
import { buildProgram } from './program.js';

buildProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    process.stderr.write(`school-admin: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
