import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEMO_API_KEY,
  DEMO_DELETED_MEMBER_NUMBERS,
  DEMO_IDS,
  DEMO_LICENCE_EMAILS,
  DEMO_MEMBER_COUNT,
  createManualClock,
  createSimulator,
  demoMemberEmail,
  seedDemoSchool,
} from '../../src/testing/index.js';
import { NOW_MS } from './support/small-school.js';

function demo() {
  const sim = createSimulator({ clock: createManualClock(NOW_MS) });
  return { sim, demo: seedDemoSchool(sim) };
}

describe('the demo seed', () => {
  it('is deterministic: two simulators seeded alike hold identical schools', () => {
    const first = demo();
    const second = demo();
    expect(second.sim.school().tables).toEqual(first.sim.school().tables);
    expect(second.demo.members.map((member) => member.id)).toEqual(first.demo.members.map((member) => member.id));
  });

  it('has an owner, 2 teaching assistants, 2 lecturers, 2 courses and a key with every scope', () => {
    const { sim } = demo();
    const school = sim.school(DEMO_IDS.schoolId);
    expect(school.tables.profile.ownerId).toBe(DEMO_IDS.ownerId);
    expect(school.hosts().map((user) => user.id)).toEqual([DEMO_IDS.ownerId, ...DEMO_IDS.teachingAssistantIds]);
    expect(school.tables.lecturers.size).toBe(2);
    expect([...school.tables.courses.keys()]).toEqual(DEMO_IDS.courseIds);
    expect(DEMO_API_KEY).toMatch(/^sk_live_demo_/);
  });

  it('has 500 members with known emails, a few of them deleted', () => {
    const { sim, demo: seeded } = demo();
    const school = sim.school();
    expect(seeded.members).toHaveLength(DEMO_MEMBER_COUNT);
    expect(seeded.members[6]?.email).toBe(demoMemberEmail(7));
    const deleted = seeded.members.filter((member) => member.deletedAt !== null).map((member) => member.email);
    expect(deleted).toEqual(DEMO_DELETED_MEMBER_NUMBERS.map(demoMemberEmail));
    expect(school.memberByEmail(demoMemberEmail(13))).toBeUndefined();
    expect(school.memberByEmail(demoMemberEmail(14).toUpperCase())?.email).toBe(demoMemberEmail(14));
  });

  it('has a custom-mode service (form with fields) and a default-mode service (no form)', () => {
    const { sim } = demo();
    const { services, forms } = sim.school().tables;
    expect(services.get(DEMO_IDS.defaultModeServiceId)?.ratingFormId).toBeNull();
    expect(services.get(DEMO_IDS.customModeServiceId)?.ratingFormId).toBe(DEMO_IDS.ratingFormId);
    expect(forms.get(DEMO_IDS.ratingFormId)?.fields.map((field) => field.type)).toEqual(['select', 'textarea', 'multi_select', 'address']);
  });

  it('has an active video-platform integration with 2 licence emails', () => {
    const { sim } = demo();
    expect(sim.school().tables.integration).toEqual({ active: true, licenceEmails: [...DEMO_LICENCE_EMAILS] });
  });

  it('has subscriptions in every state, one pending cancellation, one on a lifetime plan', () => {
    const { sim } = demo();
    const { subscriptions, plans } = sim.school().tables;
    const states = new Set([...subscriptions.values()].map((subscription) => subscription.state));
    expect([...states].sort()).toEqual(['active', 'canceled', 'expired', 'incomplete', 'incomplete_expired', 'past_due', 'trialing']);
    expect(subscriptions.get(DEMO_IDS.subscriptionIds.canceling)?.isCanceling).toBe(true);
    expect(plans.get(DEMO_IDS.planIds.lifetime)?.lifetime).toBe(true);
  });

  it('has meetings in every state and a discount code that holds its code', () => {
    const { sim, demo: seeded } = demo();
    const school = sim.school();
    expect(seeded.meetings.open.every((meeting) => meeting.state === 'available')).toBe(true);
    expect(seeded.meetings.scheduled.state).toBe('scheduled');
    expect(seeded.meetings.scheduled.hostingId).toMatch(/^vp_/);
    expect(seeded.meetings.canceled.state).toBe('canceled');
    expect(school.codeTaken('welcome10')).toBe(true);
  });
});

describe('the seeding API', () => {
  it('ids are deterministic UUIDs from the id seed (no Math.random in the model)', () => {
    const ids = (seed: number) => {
      const sim = createSimulator({ idSeed: seed });
      const school = sim.addSchool();
      return [school.schoolId, school.addMember().id, school.addCoupon().code];
    };
    expect(ids(7)).toEqual(ids(7));
    expect(ids(7)).not.toEqual(ids(8));
    expect(ids(7)[1]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ids(7)[2]).toMatch(/^[A-Z2-9]{6}$/);
  });

  it('refuses references to records the school does not hold', () => {
    const sim = createSimulator();
    const school = sim.addSchool();
    expect(() => school.addService({ courseId: 'missing' })).toThrow(/course missing does not exist/);
  });
});

describe('entry points', () => {
  it('school-admin-sdk/testing does not import msw (only src/testing/msw.ts does)', () => {
    const root = join(import.meta.dirname, '../../src/testing');
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]));
    const importingMsw = files(root).filter((file) => /from 'msw/.test(readFileSync(file, 'utf8')));
    expect(importingMsw.map((file) => file.slice(root.length + 1))).toEqual(['msw.ts']);
  });
});
