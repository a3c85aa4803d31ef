import { describe, expect, it } from 'vitest';
import { PayloadError, SUBSCRIPTION_UPDATE_REASONS } from '../../src/index.js';
import { subscription } from '../support/fixtures.js';
import { API_KEY, BASE_URL, useScriptedAdminApi, testClient } from '../support/scripted-admin-api.js';

const api = useScriptedAdminApi();

describe('updateSubscriptionPeriod (updateSubscription)', () => {
  it('POSTs the mutation to {base_url}/admin/graphql with X-Service-API-Key and the variables', async () => {
    api.data({ updateSubscription: { errors: [], subscription: subscription() } });
    await testClient().updateSubscriptionPeriod('sub-1', 1_800_000_000);
    expect(api.last.url).toBe(`${BASE_URL}/admin/graphql`);
    expect(api.last.headers.get('x-service-api-key')).toBe(API_KEY);
    expect(api.last.query.startsWith('mutation UpdateSubscription')).toBe(true);
    expect(api.last.variables).toEqual({ id: 'sub-1', currentPeriodEnd: 1_800_000_000 });
  });

  it('accepts a Date and sends whole Unix seconds', async () => {
    api.data({ updateSubscription: { errors: [], subscription: subscription() } });
    await testClient().updateSubscriptionPeriod('sub-1', new Date('2027-01-15T12:00:00.900Z'));
    expect(api.last.variables.currentPeriodEnd).toBe(Date.UTC(2027, 0, 15, 12) / 1000);
  });

  it('returns currentPeriodEnd as a number when the server serialises it as a string of digits', async () => {
    api.data({ updateSubscription: { errors: [], subscription: subscription({ currentPeriodEnd: '1800000000', nextChargeDate: '1800000000' }) } });
    const result = await testClient().updateSubscriptionPeriod('sub-1', 1_800_000_000);
    expect(result.currentPeriodEnd).toBe(1_800_000_000);
    expect(result.nextChargeDate).toBe(1_800_000_000);
    expect(result.plan).toEqual({ id: 'plan-1', name: 'Monthly' });
  });

  describe('each documented rejection message maps to a stable reason', () => {
    const cases = Object.entries(SUBSCRIPTION_UPDATE_REASONS);

    it.each(cases)('payload errors ["%s"] -> PayloadError reason %s', async (message, reason) => {
      api.data({ updateSubscription: { errors: [message], subscription: null } });
      const error = await testClient().updateSubscriptionPeriod('sub-1', 1_800_000_000).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(PayloadError);
      expect(error).toMatchObject({ reason, messages: [message], operation: 'updateSubscriptionPeriod' });
    });

    it.each(cases)('the same message in the top-level errors array ("%s") -> PayloadError reason %s', async (message, reason) => {
      // The spec does not say which channel carries these messages; both are recognised.
      api.answer({ body: { data: { updateSubscription: null }, errors: [{ message, path: ['updateSubscription'] }] } });
      const error = await testClient().updateSubscriptionPeriod('sub-1', 1_800_000_000).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(PayloadError);
      expect(error).toMatchObject({ reason });
    });
  });

  it('an undocumented payload message is a PayloadError without reason', async () => {
    api.data({ updateSubscription: { errors: ['Something else'], subscription: null } });
    const error = await testClient().updateSubscriptionPeriod('sub-1', 1).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PayloadError);
    expect((error as PayloadError).reason).toBeUndefined();
  });
});
