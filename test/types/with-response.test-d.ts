import { describe, expectTypeOf, it } from 'vitest';
import type {
  AdminApiError,
  AdminApiPromise,
  AdminClient,
  AttendeeRating,
  AuthenticationError,
  BulkResult,
  CallResponse,
  ConsultingMeeting,
  ConsultingService,
  Coupon,
  DiscardedConsultingService,
  EnrollResult,
  GrantResult,
  GrantToManySummary,
  HttpError,
  InvalidResponseError,
  RescheduleResult,
  ResponseHeaders,
  RevokedCouponGrant,
  Subscription,
  WithResponse,
} from '../../src/index.js';

declare const admin: AdminClient;

/** What each method resolved to before `withResponse()` existed: awaiting it must give exactly that (`request` below). */
interface PlainResults {
  updateSubscriptionPeriod: Subscription;
  createConsultingService: ConsultingService;
  updateConsultingService: ConsultingService;
  deleteConsultingService: DiscardedConsultingService;
  bulkCreateMeetings: BulkResult;
  updateMeeting: ConsultingMeeting;
  cancelMeeting: ConsultingMeeting;
  bulkCancelMeetings: BulkResult;
  enrollStudent: EnrollResult;
  removeStudent: ConsultingMeeting;
  rescheduleStudent: RescheduleResult;
  rateMeeting: AttendeeRating;
  createCoupon: Coupon;
  updateCoupon: Coupon;
  grantCoupon: GrantResult;
  grantCouponToMany: GrantToManySummary;
  revokeCouponGrant: RevokedCouponGrant;
}

type Method = Exclude<{ [K in keyof AdminClient]: AdminClient[K] extends (...args: never[]) => unknown ? K : never }[keyof AdminClient], 'on' | 'withOptions' | 'request'>;
type Resolved = { [K in Method]: Awaited<ReturnType<AdminClient[K]>> };

describe('plain results are unchanged', () => {
  it('awaiting every method gives the same type as before, and the table covers every method', () => {
    expectTypeOf<Resolved>().toEqualTypeOf<PlainResults>();
  });

  it('a call is still a Promise of its result (assignable where a Promise is expected)', () => {
    expectTypeOf(admin.grantCoupon('c', { email: 'a@b.co' })).toExtend<Promise<GrantResult>>();
    expectTypeOf(admin.cancelMeeting('m')).toExtend<PromiseLike<ConsultingMeeting>>();
    expectTypeOf(admin.grantCoupon('c', { email: 'a@b.co' }).then((result) => result.created)).toEqualTypeOf<Promise<boolean>>();
    expectTypeOf(admin.request('query { __typename }')).resolves.toEqualTypeOf<Record<string, unknown>>();
    const typed = admin.request<{ __typename: 'Query' }>('query { __typename }');
    expectTypeOf(typed).resolves.toEqualTypeOf<{ __typename: 'Query' }>();
  });
});

describe('withResponse()', () => {
  it('gives the result as data and the response metadata', async () => {
    const { data, response } = await admin.grantCoupon('c', { email: 'a@b.co' }).withResponse();
    expectTypeOf(data).toEqualTypeOf<GrantResult>();
    expectTypeOf(response).toEqualTypeOf<CallResponse>();
    expectTypeOf(response.status).toEqualTypeOf<number>();
    expectTypeOf(response.requestId).toEqualTypeOf<string | undefined>();
    expectTypeOf(response.headers).toEqualTypeOf<ResponseHeaders>();
    expectTypeOf(response.callId).toEqualTypeOf<string>();
  });

  it('bulk calls may have sent nothing (an empty input): their response can be undefined', () => {
    expectTypeOf(admin.bulkCancelMeetings([]).withResponse()).resolves.toEqualTypeOf<WithResponse<BulkResult, CallResponse | undefined>>();
    expectTypeOf(admin.bulkCancelMeetings([])).toEqualTypeOf<AdminApiPromise<BulkResult, CallResponse | undefined>>();
  });

  it('the response is read-only', async () => {
    const { response } = await admin.cancelMeeting('m').withResponse();
    // @ts-expect-error the metadata is read-only
    response.status = 500;
    // @ts-expect-error the headers are read-only
    response.headers['x-request-id'] = 'forged';
  });
});

describe('response metadata on errors', () => {
  it('every error has status, headers and requestId, undefined when there was no response', () => {
    expectTypeOf<AdminApiError['status']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<AdminApiError['headers']>().toEqualTypeOf<ResponseHeaders | undefined>();
    expectTypeOf<AdminApiError['requestId']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<AdminApiError['callId']>().toEqualTypeOf<string | undefined>();
  });

  it('classes that always have a status keep it a number', () => {
    expectTypeOf<HttpError['status']>().toEqualTypeOf<number>();
    expectTypeOf<AuthenticationError['status']>().toEqualTypeOf<number>();
    expectTypeOf<InvalidResponseError['status']>().toEqualTypeOf<number>();
  });
});
