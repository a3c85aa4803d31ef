import type {
  CouponRecord,
  CourseRecord,
  DiscountCodeRecord,
  EmailRecord,
  FormRecord,
  GrantRecord,
  LecturerRecord,
  MeetingRecord,
  PaymentPaidWebhook,
  PlanRecord,
  ProductRecord,
  RatingRecord,
  RedemptionRecord,
  ServiceRecord,
  SubscriptionRecord,
  UserRecord,
  VideoIntegrationRecord,
} from './records.js';
import { AppendOnlyIndex } from './append-only-index.js';

/** Settings of a school. */
export interface SchoolProfile {
  /** Display name. */
  name: string;
  /** ISO currency of prices and fixed-amount coupons. */
  currency: string;
  /** IANA zone: every service's `effectiveTimezone`. */
  timezone: string;
  /** The owner's user id (the default meeting host). */
  ownerId: string;
}

/** Every table of one school. Plain data: `structuredClone` copies it for rollback. */
export interface SchoolTables {
  /** The school's settings. */
  profile: SchoolProfile;
  /** The video-platform integration. */
  integration: VideoIntegrationRecord;
  /** Owner, teaching assistants and members, by id. */
  users: Map<string, UserRecord>;
  /** Lecturers, by id. */
  lecturers: Map<string, LecturerRecord>;
  /** Courses, by id. */
  courses: Map<string, CourseRecord>;
  /** Other catalog products, by id. */
  products: Map<string, ProductRecord>;
  /** Feedback forms, by id. */
  forms: Map<string, FormRecord>;
  /** Membership plans, by id. */
  plans: Map<string, PlanRecord>;
  /** Subscriptions, by id. */
  subscriptions: Map<string, SubscriptionRecord>;
  /** Consulting services, by id. */
  services: Map<string, ServiceRecord>;
  /** Consulting meetings, by id. */
  meetings: Map<string, MeetingRecord>;
  /** Keyed by `${meetingId}:${userId}`. */
  ratings: Map<string, RatingRecord>;
  /** Coupons, by id. */
  coupons: Map<string, CouponRecord>;
  /** Discount codes (standalone and generated for coupons), by id. */
  discountCodes: Map<string, DiscountCodeRecord>;
  /** Coupon grants, by id. */
  grants: Map<string, GrantRecord>;
  /** Coupon uses at checkout, in order. */
  redemptions: RedemptionRecord[];
  /** Emails the service would send (rating notifications). */
  outbox: EmailRecord[];
  /** `payment.paid` payloads produced by simulated checkouts. */
  webhooks: PaymentPaidWebhook[];
}

/** Creates the empty tables of a school. */
export function emptySchoolTables(profile: SchoolProfile): SchoolTables {
  return {
    profile,
    integration: { active: false, licenceEmails: [] },
    users: new Map(),
    lecturers: new Map(),
    courses: new Map(),
    products: new Map(),
    forms: new Map(),
    plans: new Map(),
    subscriptions: new Map(),
    services: new Map(),
    meetings: new Map(),
    ratings: new Map(),
    coupons: new Map(),
    discountCodes: new Map(),
    grants: new Map(),
    redemptions: [],
    outbox: [],
    webhooks: [],
  };
}

/** The key of a student's rating in a meeting. */
export function ratingKey(meetingId: string, userId: string): string {
  return `${meetingId}:${userId}`;
}

/**
 * One school of the simulator: its tables and the lookups every rule uses. Lookups apply the
 * spec's visibility: deleted users, discarded services and meetings, and deleted coupons are
 * "not found"; IDs of another school are simply absent from these tables.
 */
export class SchoolModel {
  // Lookups a bulk grant job makes per request: linear scans were O(members) and O(grants) each.
  readonly #usersByEmail = new AppendOnlyIndex<UserRecord>((user) => user.email.toLowerCase());
  readonly #grantsByHolder = new AppendOnlyIndex<GrantRecord>((grant) => `${grant.couponId}:${grant.userId}`);

  constructor(
    /** The school's id. */
    readonly id: string,
    /** Every table; replaced wholesale when a transaction rolls back. */
    public tables: SchoolTables,
  ) {}

  /**
   * Runs `work` as one transaction: when it throws, every table returns to its state before the
   * call (what it had changed is undone) and the error propagates.
   */
  transaction<T>(work: () => T): T {
    const snapshot = structuredClone(this.tables);
    try {
      return work();
    } catch (error) {
      this.tables = snapshot;
      throw error;
    }
  }

  /** A non-deleted user of the school, whatever the role. */
  liveUser(userId: string): UserRecord | undefined {
    const user = this.tables.users.get(userId);
    return user && user.deletedAt === null ? user : undefined;
  }

  /** A non-deleted member (student) of the school. */
  member(userId: string): UserRecord | undefined {
    const user = this.liveUser(userId);
    return user?.roles.includes('member') ? user : undefined;
  }

  /** The non-deleted member with this email, matched case-insensitively. */
  memberByEmail(email: string): UserRecord | undefined {
    const wanted = email.trim().toLowerCase();
    const isMember = (user: UserRecord): boolean => user.deletedAt === null && user.roles.includes('member') && user.email.toLowerCase() === wanted;
    const { users } = this.tables;
    const indexed = this.#usersByEmail.get(users, wanted);
    // A hit is trusted when it is still the table's record; anything else gets the exact scan.
    const hit = indexed.find(isMember);
    if (hit !== undefined && indexed.every((user) => users.get(user.id) === user)) return hit;
    for (const user of users.values()) if (isMember(user)) return user;
    return undefined;
  }

  /** Any user of the school with this email, deleted accounts included. */
  anyUserByEmail(email: string): UserRecord | undefined {
    const wanted = email.trim().toLowerCase();
    for (const user of this.tables.users.values()) if (user.email.toLowerCase() === wanted) return user;
    return undefined;
  }

  /** The valid hosts and graders: the owner first, then the non-deleted teaching assistants. */
  hosts(): UserRecord[] {
    const owner = this.liveUser(this.tables.profile.ownerId);
    const assistants = [...this.tables.users.values()].filter(
      (user) => user.deletedAt === null && user.roles.includes('teaching_assistant') && user.id !== owner?.id,
    );
    return owner ? [owner, ...assistants] : assistants;
  }

  /** True when the user is the owner or a non-deleted teaching assistant. */
  isHost(userId: string): boolean {
    return this.hosts().some((user) => user.id === userId);
  }

  /** A service that is not discarded. */
  liveService(serviceId: string): ServiceRecord | undefined {
    const service = this.tables.services.get(serviceId);
    return service && service.discardedAt === null ? service : undefined;
  }

  /** A meeting that is not discarded. */
  liveMeeting(meetingId: string): MeetingRecord | undefined {
    const meeting = this.tables.meetings.get(meetingId);
    return meeting && meeting.discardedAt === null ? meeting : undefined;
  }

  /** A coupon that is not deleted. */
  liveCoupon(couponId: string): CouponRecord | undefined {
    const coupon = this.tables.coupons.get(couponId);
    return coupon && coupon.deletedAt === null ? coupon : undefined;
  }

  /** The non-deleted coupon with this code (case-insensitive). */
  couponByCode(code: string): CouponRecord | undefined {
    const wanted = code.toLowerCase();
    for (const coupon of this.tables.coupons.values()) {
      if (coupon.deletedAt === null && coupon.code.toLowerCase() === wanted) return coupon;
    }
    return undefined;
  }

  /**
   * True when a non-deleted coupon or discount code holds `code` (case-insensitive; deactivated
   * ones still hold theirs).
   */
  codeTaken(code: string): boolean {
    const wanted = code.toLowerCase();
    if (this.couponByCode(code)) return true;
    for (const discount of this.tables.discountCodes.values()) {
      if (discount.deletedAt === null && discount.code.toLowerCase() === wanted) return true;
    }
    return false;
  }

  /** True when the id is a product of the school's selectable catalog (courses, plans, products). */
  isSelectableItem(itemId: string): boolean {
    const { courses, plans, products } = this.tables;
    return courses.has(itemId) || plans.has(itemId) || products.has(itemId);
  }

  /**
   * The member's grant of the coupon that is not revoked (the oldest, if several), or `undefined`.
   * Grants are only ever added, and their coupon and member never change.
   */
  activeGrant(couponId: string, userId: string): GrantRecord | undefined {
    return this.#grantsByHolder.get(this.tables.grants, `${couponId}:${userId}`).find((grant) => grant.status !== 'revoked');
  }

  /** The rating of a student in a meeting. */
  rating(meetingId: string, userId: string): RatingRecord | undefined {
    return this.tables.ratings.get(ratingKey(meetingId, userId));
  }
}
