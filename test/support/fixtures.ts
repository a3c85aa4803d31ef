/** Wire-shaped objects as the admin API returns them for the SDK's fragments. */

export const meeting = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: 'm-1',
  title: 'Office hours',
  description: null,
  state: 'available',
  startedAt: 1_800_000_000,
  endedAt: 1_800_003_600,
  serviceId: 'svc-1',
  lecturerId: null,
  hostUserId: 'owner-1',
  hostEmail: null,
  hostingType: 'live_session',
  hostingId: null,
  joinUrl: null,
  maxAttendeeCapacity: 4,
  price: null,
  currency: null,
  attendeeCount: 0,
  discardedAt: null,
  createdAt: 1_790_000_000,
  updatedAt: 1_790_000_000,
  ...overrides,
});

export const service = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: 'svc-1',
  name: 'Office hours',
  slug: 'office-hours',
  description: null,
  published: true,
  publishedAt: 1_790_000_000,
  tags: ['math'],
  backgroundColor: '#336699',
  ratingFormId: null,
  courseId: 'course-1',
  lecturerId: null,
  effectiveTimezone: 'Europe/Berlin',
  meetingCount: 0,
  discardedAt: null,
  createdAt: 1_790_000_000,
  updatedAt: 1_790_000_000,
  ...overrides,
});

export const grant = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: 'grant-1',
  status: 'granted',
  userName: 'Ada Lovelace',
  userEmail: 'ada@example.com',
  grantedByName: null,
  grantedAt: 1_790_000_000,
  redeemedAt: null,
  revokedAt: null,
  ...overrides,
});

export const coupon = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: '6f1c8a52-0d2e-4d36-9a55-9d3a3c7e2b10',
  name: 'VIP',
  code: 'VIP20X',
  couponType: 'percentage',
  amount: 20,
  active: true,
  restricted: true,
  oncePerUser: false,
  redemptionLimit: null,
  startedAt: null,
  expiredAt: null,
  appliedCount: 0,
  ...overrides,
});

export const subscription = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: 'sub-1',
  currentPeriodEnd: 1_800_000_000,
  currentPeriodStart: 1_797_000_000,
  endAt: null,
  isCanceling: false,
  isCancellable: true,
  nextChargeDate: 1_800_000_000,
  planId: 'plan-1',
  startAt: 1_760_000_000,
  state: 'active',
  plan: { id: 'plan-1', name: 'Monthly' },
  user: { id: 'user-1', name: 'Ada Lovelace', email: 'ada@example.com' },
  ...overrides,
});

export const attendeeRating = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  userId: 'user-1',
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  rate: { score: 8.5, comment: 'Well prepared' },
  ...overrides,
});
