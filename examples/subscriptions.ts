/**
 * Move the end of a subscription's current period, and branch on the documented refusals
 * (`PayloadError.reason`, e.g. `pending_cancellation`).
 *
 * Run: npx tsx examples/subscriptions.ts   (the simulator; a real server with ADMIN_API_URL + ADMIN_API_KEY)
 */
import { PayloadError } from '../src/index.js';
import { DEMO_IDS } from '../src/testing/index.js';
import { step } from './support/report.js';
import { connect } from './support/target.js';

const target = await connect();
const { admin, school } = target;
try {
  await step('Extend a subscription by 30 days', async () => {
    const subscription = await admin.updateSubscriptionPeriod(school.subscriptionId, new Date(Date.now() + 30 * 86_400_000));
    return { value: subscription, line: `currentPeriodEnd ${new Date((subscription.currentPeriodEnd ?? 0) * 1000).toISOString()} (state ${subscription.state})` };
  });

  await step('A date more than 10 years ahead is refused with a stable reason', async () => {
    const error = await admin.updateSubscriptionPeriod(school.subscriptionId, new Date(Date.now() + 11 * 365 * 86_400_000)).catch((caught: unknown) => caught);
    return { value: error, line: error instanceof PayloadError ? `PayloadError reason=${error.reason}` : String(error) };
  });

  if (target.mode === 'simulator') {
    await step('A subscription pending cancellation cannot be updated', async () => {
      const error = await admin.updateSubscriptionPeriod(DEMO_IDS.subscriptionIds.canceling, new Date(Date.now() + 86_400_000)).catch((caught: unknown) => caught);
      return { value: error, line: error instanceof PayloadError ? `PayloadError reason=${error.reason}: ${error.messages[0]}` : String(error) };
    });
  }
} finally {
  await target.close();
}
