import { Command } from 'commander';
import { SDK_VERSION } from '../client/options/version.js';
import { cancelMeetingsCommand } from './commands/cancel-meetings.js';
import { createSlotsCommand } from './commands/create-slots.js';
import { grantCouponCommand } from './commands/grant-coupon.js';
import { mockServerCommand } from './commands/mock-server.js';
import { EXIT_CODES } from './support/exit-codes.js';
import { fitToOutput } from './support/help-layout.js';
import { exitTwoOnUsageErrors } from './support/run-action.js';

/** The `school-admin` program with all its commands (built per run: no shared state). */
export function buildProgram(): Command {
  const program = new Command('school-admin')
    .description('Bulk jobs for the school admin API, and a local mock server of it.\nReads ADMIN_API_URL and ADMIN_API_KEY from the environment.')
    .version(SDK_VERSION)
    .showHelpAfterError()
    .addCommand(grantCouponCommand())
    .addCommand(createSlotsCommand())
    .addCommand(cancelMeetingsCommand())
    .addCommand(mockServerCommand());
  // An unknown command and no command at all are usage errors too (exit 2, as for a bad option).
  exitTwoOnUsageErrors(program);
  program.helpCommand(false).addCommand(helpCommand(program));
  for (const command of [program, ...program.commands]) fitToOutput(command);
  return program;
}

/**
 * `school-admin help [command]`, as commander's own but refusing an unknown command name with a
 * usage error (commander's prints the program's help and exits 1).
 */
function helpCommand(program: Command): Command {
  return new Command('help')
    .description('display help for command')
    .argument('[command]', 'the command to explain')
    .helpOption(false)
    .action((name: string | undefined) => {
      if (name === undefined) return program.outputHelp();
      const command = program.commands.find((candidate) => candidate.name() === name && candidate.name() !== 'help');
      if (command !== undefined) return command.outputHelp();
      const names = program.commands.map((candidate) => candidate.name()).filter((candidate) => candidate !== 'help');
      return program.error(`error: unknown command '${name}'. The commands are ${names.join(', ')}.`, { exitCode: EXIT_CODES.usage, code: 'commander.unknownCommand' });
    });
}
