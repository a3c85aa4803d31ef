import { describe, expectTypeOf, it } from 'vitest';
import { CodedError, ERROR_CODES, hasCode, type CodedErrorOptions, type ErrorCode, type ErrorCodeInfo, type RowError } from '../../src/index.js';

declare const error: unknown;

describe('ErrorCode: the spec error table', () => {
  it('is exactly the keys of ERROR_CODES, a union of literals (not string)', () => {
    expectTypeOf<keyof typeof ERROR_CODES>().toEqualTypeOf<ErrorCode>();
    expectTypeOf<string>().not.toExtend<ErrorCode>();
    expectTypeOf<'COUPON-003' | 'MEETING-012' | 'GENERAL-001'>().toExtend<ErrorCode>();
    expectTypeOf(ERROR_CODES['MEETING-004']).toEqualTypeOf<ErrorCodeInfo>();
  });
});

describe('CodedError.code: ErrorCode, with an escape for codes the spec does not list', () => {
  it('offers the documented codes and still holds any string a server sends', () => {
    expectTypeOf<CodedError['code']>().toEqualTypeOf<ErrorCode | (string & {})>();
    expectTypeOf<CodedErrorOptions['code']>().toEqualTypeOf<ErrorCode | (string & {})>();
    expectTypeOf<ErrorCode>().toExtend<CodedError['code']>();
    expectTypeOf<'BILLING-042'>().toExtend<CodedError['code']>();
  });

  it('bulk row codes follow the same rule', () => {
    expectTypeOf<RowError['code']>().toEqualTypeOf<ErrorCode | (string & {}) | undefined>();
  });
});

describe("hasCode(e, 'COUPON-003') narrows; hasCode(e, 'COUPON-03') does not compile", () => {
  it('a documented literal narrows an unknown error to a CodedError with that code', () => {
    if (hasCode(error, 'COUPON-003')) {
      expectTypeOf(error).toExtend<CodedError>();
      expectTypeOf(error.code).toEqualTypeOf<'COUPON-003'>();
      expectTypeOf(error.validOptions).toEqualTypeOf<string[] | undefined>();
    }
  });

  it('a typo or an undocumented literal is refused at compile time', () => {
    // @ts-expect-error 'COUPON-03' is not a documented code (typo of COUPON-003)
    void hasCode(error, 'COUPON-03');
    // @ts-expect-error lower case is not a code
    void hasCode(error, 'coupon-003');
    // @ts-expect-error MEETING-002 does not exist in the spec's table
    void hasCode(error, 'MEETING-002');
    // @ts-expect-error a union with one unknown member is refused too
    void hasCode(error, 'COUPON-003' as 'COUPON-003' | 'COUPON-03');
  });

  it('a union of documented codes narrows to that union', () => {
    const either = 'COUPON-003' as 'COUPON-003' | 'COUPON-001';
    if (hasCode(error, either)) expectTypeOf(error.code).toEqualTypeOf<'COUPON-003' | 'COUPON-001'>();
  });

  it('a code only known at run time (typed string or ErrorCode) is accepted', () => {
    const fromConfig: string = 'BILLING-042';
    if (hasCode(error, fromConfig)) expectTypeOf(error.code).toEqualTypeOf<string>();
    const documented = 'MEETING-004' as ErrorCode;
    if (hasCode(error, documented)) expectTypeOf(error.code).toEqualTypeOf<ErrorCode>();
    const other = new CodedError('x', { operation: 'grantCoupon', code: 'COUPON-001' });
    if (hasCode(error, other.code)) expectTypeOf(error).toExtend<CodedError>();
  });
});
