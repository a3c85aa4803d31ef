/**
 * The simulator's member-by-email and active-grant lookups are indexed (added so that bulk grant
 * jobs of 20,000 members run at the scaled rate). They must answer exactly as the scans they
 * replaced, whatever happens to the tables.
 */
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../src/testing/index.js';

function school() {
  const simulator = createSimulator({ limits: false });
  const seeder = simulator.addSchool({ name: 'Index school' });
  const [ada, bob] = seeder.addMembers(2, (index) => ({ email: ['Ada@Example.com', 'bob@example.com'][index] }));
  const coupon = seeder.addCoupon({ restricted: true });
  return { simulator, seeder, model: simulator.school(), ada: ada!, bob: bob!, couponId: coupon.id };
}

describe('memberByEmail with an index', () => {
  it('matches case-insensitively and after trimming, as before', () => {
    const { model, ada } = school();
    expect(model.memberByEmail('  ada@EXAMPLE.com ')?.id).toBe(ada.id);
    expect(model.memberByEmail('nobody@example.com')).toBeUndefined();
  });

  it('finds members added after the index was built, and stops finding deleted ones', () => {
    const { simulator, seeder, model, bob } = school();
    expect(model.memberByEmail('bob@example.com')?.id).toBe(bob.id);
    const carol = seeder.addMember({ email: 'carol@example.com' });
    expect(model.memberByEmail('carol@example.com')?.id).toBe(carol.id);
    simulator.deleteUser(bob.id);
    expect(model.memberByEmail('bob@example.com')).toBeUndefined();
  });

  it('a record replaced under the same id is answered from the table, not the index', () => {
    const { model, ada } = school();
    expect(model.memberByEmail('ada@example.com')?.id).toBe(ada.id);
    model.tables.users.set(ada.id, { ...ada, email: 'ada.new@example.com' });
    expect(model.memberByEmail('ada@example.com')).toBeUndefined();
    expect(model.memberByEmail('ada.new@example.com')?.id).toBe(ada.id);
  });

  it('a rolled-back transaction (tables restored from a copy) leaves no trace in the lookups', () => {
    const { model } = school();
    expect(model.memberByEmail('dan@example.com')).toBeUndefined();
    expect(() =>
      model.transaction(() => {
        model.tables.users.set('dan', { id: 'dan', name: 'Dan', email: 'dan@example.com', roles: ['member'], deletedAt: null, createdAt: 0 } as never);
        expect(model.memberByEmail('dan@example.com')?.id).toBe('dan');
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    expect(model.memberByEmail('dan@example.com')).toBeUndefined();
    expect(model.memberByEmail('bob@example.com')).toBeDefined();
  });
});

describe('activeGrant with an index', () => {
  it('is the grant that is not revoked; a revoked one no longer counts and a new one is found', () => {
    const { seeder, model, ada, couponId } = school();
    expect(model.activeGrant(couponId, ada.id)).toBeUndefined();
    const first = seeder.addGrant({ couponId, userId: ada.id });
    expect(model.activeGrant(couponId, ada.id)?.id).toBe(first.id);
    first.status = 'revoked';
    expect(model.activeGrant(couponId, ada.id)).toBeUndefined();
    const second = seeder.addGrant({ couponId, userId: ada.id });
    expect(model.activeGrant(couponId, ada.id)?.id).toBe(second.id);
  });
});
