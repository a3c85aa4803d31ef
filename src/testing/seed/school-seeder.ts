import { ALL_SCOPES, type ApiKeyRegistry } from '../auth/api-keys.js';
import type { IdGenerator } from '../model/id-generator.js';
import type {
  CouponRecord,
  CourseRecord,
  DiscountCodeRecord,
  FormRecord,
  GrantRecord,
  LecturerRecord,
  MeetingRecord,
  PlanRecord,
  ProductRecord,
  RatingRecord,
  ServiceRecord,
  SubscriptionRecord,
  UserRecord,
  UserRole,
} from '../model/records.js';
import { ratingKey, type SchoolModel } from '../model/school.js';
import type { VideoPlatform } from '../model/video-platform.js';
import { slugify } from '../resolvers/service-rules.js';
import { buildCoupon, buildMeeting, buildSubscription } from './record-builders.js';
import type * as Seed from './seed-inputs.js';

/** What a seeder needs from its simulator. */
export interface SeedEnvironment {
  ids: IdGenerator;
  /** Unix seconds. */
  now(): number;
  videoPlatform: VideoPlatform;
  keys: ApiKeyRegistry;
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`Failed to seed: ${what} does not exist in this school. Seed it first.`);
  return value;
}

/**
 * Builds a school's data in a few lines, bypassing the API (and its rate limit). Every method
 * returns the record it created, so tests can use its ids. Created by
 * {@link Simulator.addSchool} or {@link Simulator.seeder}.
 *
 * @example
 * ```ts
 * const school = sim.addSchool({ name: 'Acme' });
 * const course = school.addCourse({ name: 'Python' });
 * const service = school.addService({ courseId: course.id, name: 'Office hours' });
 * const alice = school.addMember({ name: 'Alice', email: 'alice@acme.example' });
 * const key = school.addApiKey();
 * ```
 */
export class SchoolSeeder {
  /** @internal Seeders come from `simulator.addSchool()` and `simulator.seeder()`. */
  constructor(
    /** The school being seeded (its model: tables and lookups). */
    readonly school: SchoolModel,
    private readonly env: SeedEnvironment,
  ) {}

  /** The school's id. */
  get schoolId(): string {
    return this.school.id;
  }

  /** The school owner. */
  get owner(): UserRecord {
    return required(this.school.tables.users.get(this.school.tables.profile.ownerId), 'the owner');
  }

  private addUser(seed: Seed.PersonSeed, roles: UserRole[], deleted = false): UserRecord {
    const { users } = this.school.tables;
    const n = users.size + 1;
    const user: UserRecord = {
      id: seed.id ?? this.env.ids.uuid(),
      name: seed.name ?? `${roles.includes('member') ? 'Member' : 'Staff'} ${n}`,
      email: seed.email ?? `user-${n}@${this.school.id.slice(0, 8)}.school.example`,
      roles,
      deletedAt: deleted ? this.env.now() : null,
      createdAt: this.env.now(),
      createdVia: 'seed',
    };
    users.set(user.id, user);
    return user;
  }

  /** Adds the owner (done by `addSchool`). */
  addOwner(seed: Seed.PersonSeed = {}): UserRecord {
    const owner = this.addUser({ name: 'School Owner', ...seed }, ['owner']);
    this.school.tables.profile.ownerId = owner.id;
    return owner;
  }

  /** Adds a user with the `teaching_assistant` role. */
  addTeachingAssistant(seed: Seed.PersonSeed = {}): UserRecord {
    return this.addUser(seed, ['teaching_assistant']);
  }

  /** Adds a member (student); `deleted: true` seeds a deleted account. */
  addMember(seed: Seed.MemberSeed = {}): UserRecord {
    return this.addUser(seed, ['member'], seed.deleted === true);
  }

  /** Adds `count` members; `make(i)` (0-based) gives each one's seed. */
  addMembers(count: number, make: (index: number) => Seed.MemberSeed = () => ({})): UserRecord[] {
    return Array.from({ length: count }, (_, index) => this.addMember(make(index)));
  }

  /** Adds a lecturer profile. */
  addLecturer(seed: Seed.NamedSeed = {}): LecturerRecord {
    const lecturer = { id: seed.id ?? this.env.ids.uuid(), name: seed.name ?? 'Lecturer' };
    this.school.tables.lecturers.set(lecturer.id, lecturer);
    return lecturer;
  }

  /** Adds a course. */
  addCourse(seed: Seed.NamedSeed = {}): CourseRecord {
    const course = { id: seed.id ?? this.env.ids.uuid(), name: seed.name ?? 'Course' };
    this.school.tables.courses.set(course.id, course);
    return course;
  }

  /** Adds a catalog product (event, ticket, digital product, curriculum plan ...). */
  addProduct(seed: Seed.ProductSeed): ProductRecord {
    const product = { id: seed.id ?? this.env.ids.uuid(), name: seed.name ?? seed.kind, kind: seed.kind };
    this.school.tables.products.set(product.id, product);
    return product;
  }

  /** Adds a feedback form with its fields. */
  addForm(seed: Seed.FormSeed): FormRecord {
    const form: FormRecord = {
      id: seed.id ?? this.env.ids.uuid(),
      name: seed.name ?? 'Feedback form',
      fields: seed.fields.map((field, index) => ({
        id: field.id ?? this.env.ids.uuid(),
        label: field.label ?? `Question ${index + 1}`,
        type: field.type ?? 'text',
        required: field.required ?? false,
        options: field.options ?? [],
      })),
    };
    this.school.tables.forms.set(form.id, form);
    return form;
  }

  /** Sets up the video-platform integration and its licence emails. Default: active. */
  setVideoIntegration(seed: { active?: boolean; licenceEmails: string[] }): void {
    this.school.tables.integration = { active: seed.active ?? true, licenceEmails: [...seed.licenceEmails] };
  }

  /** Adds a membership plan. */
  addPlan(seed: Seed.PlanSeed = {}): PlanRecord {
    const lifetime = seed.lifetime ?? false;
    const plan = { id: seed.id ?? this.env.ids.uuid(), name: seed.name ?? 'Plan', lifetime, recurring: seed.recurring ?? !lifetime };
    this.school.tables.plans.set(plan.id, plan);
    return plan;
  }

  /** Adds a subscription in any state. */
  addSubscription(seed: Seed.SubscriptionSeed): SubscriptionRecord {
    const plan = required(this.school.tables.plans.get(seed.planId), `plan ${seed.planId}`);
    required(this.school.tables.users.get(seed.userId), `user ${seed.userId}`);
    const subscription = buildSubscription(this.env.ids, this.env.now(), plan, seed);
    this.school.tables.subscriptions.set(subscription.id, subscription);
    return subscription;
  }

  /** Adds a consulting service under a course. */
  addService(seed: Seed.ServiceSeed): ServiceRecord {
    required(this.school.tables.courses.get(seed.courseId), `course ${seed.courseId}`);
    const now = this.env.now();
    const name = seed.name ?? 'Consulting';
    const published = seed.published ?? false;
    const service: ServiceRecord = {
      id: seed.id ?? this.env.ids.uuid(),
      name,
      slug: seed.slug ?? slugify(name),
      description: seed.description ?? null,
      published,
      publishedAt: published ? now : null,
      settings: { tags: seed.tags ?? [] },
      backgroundColor: seed.backgroundColor ?? null,
      ratingFormId: seed.ratingFormId ?? null,
      serviceType: 'consulting',
      targetId: seed.courseId,
      lecturerId: seed.lecturerId ?? null,
      discardedAt: seed.discarded ? now : null,
      createdAt: now,
      updatedAt: now,
    };
    this.school.tables.services.set(service.id, service);
    return service;
  }

  /** Adds a meeting; `videoconf` meetings are provisioned on the video platform. */
  addMeeting(seed: Seed.MeetingSeed): MeetingRecord {
    const service = required(this.school.tables.services.get(seed.serviceId), `service ${seed.serviceId}`);
    const meeting = buildMeeting(this.env.ids, this.env.now(), this.school.tables.profile, service, seed);
    if (meeting.hostingType === 'videoconf') {
      meeting.hostEmail ??= this.school.tables.integration.licenceEmails[0] ?? null;
      this.env.videoPlatform.provisionFor(this.school.id, meeting);
    }
    this.school.tables.meetings.set(meeting.id, meeting);
    return meeting;
  }

  /** Adds a default-mode rating of an enrolled student. */
  addRating(seed: Seed.RatingSeed): RatingRecord {
    const meeting = required(this.school.tables.meetings.get(seed.meetingId), `meeting ${seed.meetingId}`);
    const now = this.env.now();
    const rating: RatingRecord = {
      id: this.env.ids.uuid(),
      meetingId: meeting.id,
      userId: seed.userId,
      raterId: seed.raterId ?? meeting.hostUserId,
      score: seed.score ?? 8,
      comment: seed.comment ?? null,
      answers: null,
      createdAt: now,
      updatedAt: now,
    };
    this.school.tables.ratings.set(ratingKey(meeting.id, seed.userId), rating);
    return rating;
  }

  /** Adds a coupon (with its discount code). */
  addCoupon(seed: Seed.CouponSeed = {}): CouponRecord {
    const now = this.env.now();
    const coupon = buildCoupon(this.env.ids, now, seed);
    this.school.tables.coupons.set(coupon.id, coupon);
    const discountId = this.env.ids.uuid();
    this.school.tables.discountCodes.set(discountId, { id: discountId, code: coupon.code, couponId: coupon.id, deletedAt: coupon.deletedAt, createdAt: now });
    return coupon;
  }

  /** Adds a standalone discount code (it holds its code against new coupons). */
  addDiscountCode(seed: Seed.DiscountCodeSeed): DiscountCodeRecord {
    const now = this.env.now();
    const discount = { id: seed.id ?? this.env.ids.uuid(), code: seed.code, couponId: null, deletedAt: seed.deleted ? now : null, createdAt: now };
    this.school.tables.discountCodes.set(discount.id, discount);
    return discount;
  }

  /** Adds a grant of a coupon to a member. */
  addGrant(seed: Seed.GrantSeed): GrantRecord {
    required(this.school.tables.coupons.get(seed.couponId), `coupon ${seed.couponId}`);
    const now = this.env.now();
    const status = seed.status ?? 'granted';
    const grant: GrantRecord = {
      id: seed.id ?? this.env.ids.uuid(),
      couponId: seed.couponId,
      userId: seed.userId,
      status,
      grantedByName: null,
      grantedAt: now,
      redeemedAt: status === 'redeemed' ? now : null,
      revokedAt: status === 'revoked' ? now : null,
    };
    this.school.tables.grants.set(grant.id, grant);
    return grant;
  }

  /** Adds an API key of this school and returns its secret. */
  addApiKey(seed: Seed.ApiKeySeed = {}): string {
    const key = seed.key ?? this.env.ids.apiKey();
    this.env.keys.add({ id: `key_${this.env.keys.all().length + 1}`, key, schoolId: this.school.id, scopes: [...(seed.scopes ?? ALL_SCOPES)] });
    return key;
  }
}
