import { createManualClock, createSimulator, type ManualClock, type Simulator, type SimulatorOptions } from '../../../src/testing/index.js';

/** 2026-11-22 12:00 UTC, the suite's "now". */
export const NOW_MS = Date.UTC(2026, 10, 22, 12);

/** A simulator on a manual clock with one small school and a key with every scope. */
export function smallSchool(options: SimulatorOptions = {}): { sim: Simulator; clock: ManualClock; key: string; schoolId: string } {
  const clock = createManualClock(NOW_MS);
  const sim = createSimulator({ clock, ...options });
  const school = sim.addSchool({ name: 'Small School' });
  const course = school.addCourse({ name: 'Course' });
  school.addService({ courseId: course.id, name: 'Office hours' });
  school.addMembers(3);
  return { sim, clock, key: school.addApiKey(), schoolId: school.schoolId };
}
