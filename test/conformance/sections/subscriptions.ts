import { describe, expect, it } from 'vitest';
import { PayloadError } from '../../../src/index.js';
import { SUBSCRIPTION_MESSAGES, type SubscriptionSeed } from '../../../src/testing/index.js';
import { DAY, NOW } from '../support/fixture.js';
import type { ConformanceTarget } from '../support/targets.js';
import { rejection, useWorld, type World } from '../support/world.js';

function payloadError(call: Promise<unknown>): Promise<PayloadError> {
  return rejection(call, PayloadError);
}

function subscription(w: World, overrides: Partial<SubscriptionSeed> = {}) {
  return w.s.school.addSubscription({ userId: w.s.alice.id, planId: w.s.monthly.id, currentPeriodStart: NOW - 10 * DAY, currentPeriodEnd: NOW + 20 * DAY, ...overrides });
}

const YEAR_2036 = Date.UTC(2036, 10, 22, 12) / 1000;
const YEAR_2025 = Date.UTC(2025, 10, 22, 12) / 1000;

/** updateSubscription: the period rules and the spec's verbatim messages. */
export function subscriptionsSection(target: ConformanceTarget): void {
  describe('updateSubscription', () => {
    const world = useWorld(target);

    it('extends the current period: currentPeriodEnd is the new end (a number, even though the server sends digits)', async () => {
      const w = world();
      const sub = subscription(w);
      const result = await w.client.updateSubscriptionPeriod(sub.id, NOW + 40 * DAY);
      expect(result.currentPeriodEnd).toBe(NOW + 40 * DAY);
      expect(w.sim.school().tables.subscriptions.get(sub.id)?.currentPeriodEnd).toBe(NOW + 40 * DAY);
    });

    it('shortens the current period', async () => {
      const w = world();
      const sub = subscription(w);
      const result = await w.client.updateSubscriptionPeriod(sub.id, NOW + DAY);
      expect(result.currentPeriodEnd).toBe(NOW + DAY);
    });

    it('on success the payload errors is an empty array (sent as the spec says)', async () => {
      const w = world();
      const sub = subscription(w);
      const data = await w.send('mutation($id: String!, $end: Int!) { updateSubscription(id: $id, currentPeriodEnd: $end) { errors subscription { id } } }', { id: sub.id, end: NOW + DAY });
      expect(data).toEqual({ updateSubscription: { errors: [], subscription: { id: sub.id } } });
    });

    it.each([
      ['id unknown', 'notFound', 'not_found', () => 'missing-subscription', NOW + DAY],
      ['plan is a lifetime plan', 'lifetime', 'lifetime_plan', (w: World) => subscription(w, { planId: w.s.lifetime.id }).id, NOW + DAY],
      ['state is canceled', 'canceled', 'already_canceled', (w: World) => subscription(w, { state: 'canceled' }).id, NOW + DAY],
      ['isCanceling is true', 'pendingCancellation', 'pending_cancellation', (w: World) => subscription(w, { isCanceling: true }).id, NOW + DAY],
      ['timestamp more than 10 years in the future', 'tooFarInFuture', 'too_far_in_future', (w: World) => subscription(w).id, YEAR_2036 + 1],
      ['timestamp more than 1 year in the past', 'tooFarInPast', 'too_far_in_past', (w: World) => subscription(w, { currentPeriodStart: null }).id, YEAR_2025 - 1],
      ['new end earlier than the current period start', 'beforePeriodStart', 'before_period_start', (w: World) => subscription(w).id, NOW - 11 * DAY],
    ] as const)('rejects when %s with the spec message, in the payload errors', async (_rule, messageKey, reason, make, end) => {
      const w = world();
      const id = make(w);
      const error = await payloadError(w.client.updateSubscriptionPeriod(id, end));
      expect(error.messages).toEqual([SUBSCRIPTION_MESSAGES[messageKey]]);
      expect(error.reason).toBe(reason);
    });

    it.each([
      ['extend', NOW + 60 * DAY],
      ['shorten', NOW + DAY],
      ['past timestamp', NOW - DAY],
    ])('isCanceling blocks every update (%s)', async (_kind, end) => {
      const w = world();
      const sub = subscription(w, { isCanceling: true });
      const error = await payloadError(w.client.updateSubscriptionPeriod(sub.id, end));
      expect(error.reason).toBe('pending_cancellation');
      expect(w.sim.school().tables.subscriptions.get(sub.id)?.currentPeriodEnd).toBe(NOW + 20 * DAY);
    });

    it('accepts exactly 10 years in the future and exactly 1 year in the past (limits are "more than")', async () => {
      const w = world();
      expect((await w.client.updateSubscriptionPeriod(subscription(w).id, YEAR_2036)).currentPeriodEnd).toBe(YEAR_2036);
      const open = subscription(w, { currentPeriodStart: null });
      expect((await w.client.updateSubscriptionPeriod(open.id, YEAR_2025)).currentPeriodEnd).toBe(YEAR_2025);
    });

    it('accepts an end equal to the current period start', async () => {
      const w = world();
      const sub = subscription(w);
      expect((await w.client.updateSubscriptionPeriod(sub.id, NOW - 10 * DAY)).currentPeriodEnd).toBe(NOW - 10 * DAY);
    });

    it.each(['active', 'incomplete', 'incomplete_expired', 'trialing', 'past_due', 'expired'] as const)('state %s is not one of the rejected states', async (state) => {
      const w = world();
      const sub = subscription(w, { state });
      expect((await w.client.updateSubscriptionPeriod(sub.id, NOW + 30 * DAY)).state).toBe(state);
    });

    it("another school's subscription is not found", async () => {
      const w = world();
      const error = await payloadError(w.client.updateSubscriptionPeriod(w.other.subscription.id, NOW + DAY));
      expect(error.reason).toBe('not_found');
    });
  });
}
