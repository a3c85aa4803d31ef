import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, findErrorCode, parseRowError, parseValidOptions } from '../../src/index.js';
import { VALID_OPTIONS_LIMIT, VALID_OPTIONS_TRUNCATION_TEXT } from '../../src/testing/index.js';
import { withValidOptions } from '../../src/testing/graphql/valid-options.js';

/** Any text at all, lone surrogates and control characters included. */
const anyText = fc.string({ unit: 'binary', maxLength: 300 });
/** Text biased towards the parsers' own tokens, so the runs reach their edge cases. */
const tokenSoup = fc
  .array(fc.oneof(anyText, fc.constantFrom('valid_options=', ',', '(truncated;', ' ', '(', 'MEETING-012', 'COUPON-0', '-001', VALID_OPTIONS_TRUNCATION_TEXT)), { maxLength: 12 })
  .map((parts) => parts.join(''));
const text = fc.oneof(anyText, tokenSoup);

/** A hint value as the server lists them: no commas, whitespace or parentheses (ids, emails). */
const optionValue = fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }).filter((value) => !/[\s,(]/.test(value));
/** A server message before the hint: anything that does not itself contain a hint. */
const messageText = anyText.filter((message) => !message.includes('valid_options='));
const code = fc.constantFrom(...Object.keys(ERROR_CODES));

describe('property: parsing server error strings never throws', () => {
  it('parseValidOptions, parseRowError and findErrorCode accept any string', () => {
    fc.assert(
      fc.property(text, (message) => {
        const hint = parseValidOptions(message);
        const row = parseRowError(message);
        const found = findErrorCode(message);
        expect(row.message).toBe(message);
        expect(row.code).toBe(found);
        expect(row.validOptions).toEqual(hint?.validOptions);
        expect(row.validOptionsTruncated).toBe(hint?.validOptionsTruncated ?? false);
        if (hint !== undefined) expect(hint.validOptions.every((value) => value.length > 0 && !/[\s,(]/.test(value))).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('property: a `valid_options=` suffix round-trips', () => {
  it('formatted by the simulator from any pool (truncated past 20 values), parsed back to the listed values and the truncation flag', () => {
    fc.assert(
      fc.property(messageText, fc.array(optionValue, { maxLength: 30 }), (message, pool) => {
        const hint = parseValidOptions(withValidOptions(message, pool));
        expect(hint).toEqual({ validOptions: pool.slice(0, VALID_OPTIONS_LIMIT), validOptionsTruncated: pool.length > VALID_OPTIONS_LIMIT });
      }),
      { numRuns: 1_000 },
    );
  });

  it('with and without the documented truncation text, whatever the flag and the values', () => {
    fc.assert(
      fc.property(messageText, fc.array(optionValue, { minLength: 1, maxLength: 20 }), fc.boolean(), (message, values, truncated) => {
        const formatted = `${message} valid_options=${values.join(',')}${truncated ? ` ${VALID_OPTIONS_TRUNCATION_TEXT}` : ''}`;
        expect(parseValidOptions(formatted)).toEqual({ validOptions: values, validOptionsTruncated: truncated });
      }),
      { numRuns: 1_000 },
    );
  });

  it('a bulk row string keeps its code and hint wherever the code stands', () => {
    const codeFree = anyText.filter((part) => findErrorCode(part) === undefined && !part.includes('valid_options='));
    fc.assert(
      fc.property(codeFree, code, codeFree, fc.array(optionValue, { minLength: 1, maxLength: 20 }), (before, errorCode, after, values) => {
        const row = parseRowError(`${before} ${errorCode}: ${after} valid_options=${values.join(',')}`);
        expect(row).toEqual({ message: expect.any(String), code: errorCode, validOptions: values, validOptionsTruncated: false });
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('property: findErrorCode finds a documented code wherever it stands', () => {
  it('between any code-free texts, separated by a non-word character', () => {
    const codeFree = anyText.filter((part) => findErrorCode(part) === undefined);
    const separator = fc.constantFrom(' ', ':', '(', '[', '"', '\n', '');
    fc.assert(
      fc.property(codeFree, separator, code, separator, codeFree, (before, left, errorCode, right, after) => {
        // With no separator, the code must still be delimited by the text's own boundary.
        const prefix = left === '' ? '' : `${before}${left}`;
        const suffix = right === '' ? '' : `${right}${after}`;
        expect(findErrorCode(`${prefix}${errorCode}${suffix}`)).toBe(errorCode);
      }),
      { numRuns: 1_000 },
    );
  });

  it('a code glued to other word characters is not a code (MEETING-0123, XMEETING-012)', () => {
    fc.assert(
      fc.property(code, fc.constantFrom('0', '9', 'a', '_'), (errorCode, glue) => {
        expect(findErrorCode(`${errorCode}${glue}`)).toBeUndefined();
        expect(findErrorCode(`${glue}${errorCode}`)).toBeUndefined();
      }),
    );
  });
});
