import { describe, expect, it } from 'vitest';
import { isDocumentedCode } from '../../src/errors/error-code-list.js';
import { ERROR_CODES } from '../../src/index.js';

describe('the documented-code list (what CodedError needs without the descriptions table)', () => {
  it('holds exactly the codes of ERROR_CODES, the spec\'s error table', () => {
    for (const code of Object.keys(ERROR_CODES)) expect(isDocumentedCode(code), code).toBe(true);
  });

  it('sweeps every PREFIX-000 to PREFIX-999 of each documented prefix (and a made-up one): documented exactly when ERROR_CODES has it', () => {
    const prefixes = [...new Set(Object.keys(ERROR_CODES).map((code) => code.split('-')[0]))];
    for (const prefix of [...prefixes, 'PAYMENT']) {
      for (let number = 0; number < 1000; number += 1) {
        const code = `${prefix}-${String(number).padStart(3, '0')}`;
        expect(isDocumentedCode(code), code).toBe(Object.hasOwn(ERROR_CODES, code));
      }
    }
  });

  it.each(['COUPON-03', 'COUPON-0001', ' COUPON-001', 'COUPON-001 ', 'COUPON-007', 'coupon-001', 'RATE_LIMIT_EXCEEDED', '', 'toString', '__proto__', 'hasOwnProperty'])('%j is not a documented code', (code) => {
    expect(isDocumentedCode(code)).toBe(false);
  });
});
