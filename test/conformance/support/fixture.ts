import type { MeetingSeed, SchoolSeeder, Simulator } from '../../../src/testing/index.js';

/** The suite's "now": 2026-11-22 12:00 UTC. */
export const NOW_MS = Date.UTC(2026, 10, 22, 12);
/** The suite's "now" in Unix seconds. */
export const NOW = NOW_MS / 1000;
export const HOUR = 3600;
export const DAY = 24 * HOUR;

/** The compact school every conformance test starts from (built with the seeding API). */
export function seedConformanceSchool(sim: Simulator) {
  const school = sim.addSchool({ name: 'Conformance School', currency: 'EUR', timezone: 'Europe/Berlin', owner: { name: 'Owner', email: 'owner@school.example' } });
  const owner = school.owner;
  const ta1 = school.addTeachingAssistant({ name: 'TA One', email: 'ta1@school.example' });
  const ta2 = school.addTeachingAssistant({ name: 'TA Two', email: 'ta2@school.example' });
  const lecturer = school.addLecturer({ name: 'Lecturer' });
  const lecturer2 = school.addLecturer({ name: 'Second Lecturer' });
  const course = school.addCourse({ name: 'Course' });
  const form = school.addForm({
    name: 'Feedback',
    fields: [
      { label: 'Overall', type: 'select', required: true, options: ['Good', 'Bad'] },
      { label: 'Notes', type: 'textarea' },
      { label: 'Topics', type: 'multi_select', options: ['a', 'b', 'c'] },
      { label: 'Address', type: 'address' },
    ],
  });
  school.setVideoIntegration({ active: true, licenceEmails: ['licence1@school.example', 'licence2@school.example'] });
  const alice = school.addMember({ name: 'Alice', email: 'alice@school.example' });
  const bob = school.addMember({ name: 'Bob', email: 'bob@school.example' });
  const carol = school.addMember({ name: 'Carol', email: 'carol@school.example' });
  const deleted = school.addMember({ name: 'Gone', email: 'gone@school.example', deleted: true });
  const monthly = school.addPlan({ name: 'Monthly' });
  const lifetime = school.addPlan({ name: 'Lifetime', lifetime: true });
  const defaultService = school.addService({ courseId: course.id, name: 'Office hours', lecturerId: lecturer.id });
  const customService = school.addService({ courseId: course.id, name: 'Coaching', ratingFormId: form.id });
  const key = school.addApiKey();
  return { school, owner, ta1, ta2, lecturer, lecturer2, course, form, alice, bob, carol, deleted, monthly, lifetime, defaultService, customService, key };
}

/** The conformance school. */
export type ConformanceSchool = ReturnType<typeof seedConformanceSchool>;

/** A second school whose IDs the first school's key must treat as not found. */
export function seedOtherSchool(sim: Simulator) {
  const school = sim.addSchool({ name: 'Other School' });
  const course = school.addCourse();
  const service = school.addService({ courseId: course.id, name: 'Other service' });
  const member = school.addMember({ email: 'other-member@school.example' });
  const meeting = school.addMeeting({ serviceId: service.id, startedAt: NOW + DAY, endedAt: NOW + DAY + HOUR, attendeeIds: [member.id] });
  const coupon = school.addCoupon({ restricted: true });
  const grant = school.addGrant({ couponId: coupon.id, userId: member.id });
  const lecturer = school.addLecturer();
  const form = school.addForm({ fields: [] });
  const plan = school.addPlan();
  const subscription = school.addSubscription({ userId: member.id, planId: plan.id });
  return { school, course, service, member, meeting, coupon, grant, lecturer, form, subscription };
}

/** A future one-hour meeting of the default-mode service, unless overridden. */
export function addMeeting(seeder: SchoolSeeder, serviceId: string, overrides: Partial<MeetingSeed> = {}) {
  return seeder.addMeeting({ serviceId, startedAt: NOW + DAY, endedAt: NOW + DAY + HOUR, ...overrides });
}
