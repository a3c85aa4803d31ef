import { Command } from 'commander';
import { SDK_VERSION } from '../client/version.js';
import { cancelMeetingsCommand } from './commands/cancel-meetings.js';
import { createSlotsCommand } from './commands/create-slots.js';
import { grantCouponCommand } from './commands/grant-coupon.js';
import { mockServerCommand } from './commands/mock-server.js';

/** The `school-admin` program with all its commands (built per run: no shared state). */
export function buildProgram(): Command {
  return new Command('school-admin')
    .description('Bulk jobs for the school admin API, and a local mock server of it.\nReads ADMIN_API_URL and ADMIN_API_KEY from the environment.')
    .version(SDK_VERSION)
    .showHelpAfterError()
    .addCommand(grantCouponCommand())
    .addCommand(createSlotsCommand())
    .addCommand(cancelMeetingsCommand())
    .addCommand(mockServerCommand());
}
