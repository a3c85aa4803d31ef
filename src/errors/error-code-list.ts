/**
 * A documented error code, e.g. `'MEETING-004'`: the spec's error table. Servers may send codes
 * the spec does not list; `CodedError.code` is typed `ErrorCode | (string & {})` for that reason.
 */
export type ErrorCode =
  | 'CONSULTING-001'
  | 'CONSULTING-002'
  | 'CONSULTING-003'
  | 'CONSULTING-004'
  | 'CONSULTING-005'
  | 'CONSULTING-006'
  | 'MEETING-001'
  | 'MEETING-003'
  | 'MEETING-004'
  | 'MEETING-006'
  | 'MEETING-007'
  | 'MEETING-008'
  | 'MEETING-009'
  | 'MEETING-010'
  | 'MEETING-011'
  | 'MEETING-012'
  | 'MEETING-013'
  | 'MEETING-014'
  | 'MEETING-015'
  | 'MEETING-016'
  | 'MEETING-017'
  | 'MEETING-018'
  | 'MEETING-019'
  | 'MEETING-020'
  | 'ENROLLMENT-001'
  | 'ENROLLMENT-002'
  | 'ENROLLMENT-005'
  | 'ENROLLMENT-006'
  | 'ENROLLMENT-007'
  | 'COUPON-001'
  | 'COUPON-002'
  | 'COUPON-003'
  | 'COUPON-004'
  | 'COUPON-005'
  | 'COUPON-006'
  | 'GENERAL-001';

/**
 * The documented codes alone, by prefix and number (`MEETING` and 4 make `'MEETING-004'`), without
 * their meanings and remedies (`ERROR_CODES`, 5 kB minified): enough for {@link isDocumentedCode},
 * so an app that imports only the error classes does not bundle the descriptions, and a quarter of
 * the size of a list of the codes written out.
 */
const DOCUMENTED_CODES = {
  CONSULTING: [1, 2, 3, 4, 5, 6],
  MEETING: [1, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20],
  ENROLLMENT: [1, 2, 5, 6, 7],
  COUPON: [1, 2, 3, 4, 5, 6],
  GENERAL: [1],
} as const;

/** `7` -> `'007'`, `12` -> `'012'`: the codes' numbers have three digits. */
type ThreeDigits<N extends number> = N extends number ? (`${N}` extends `${string}${infer Rest}` ? (Rest extends '' ? `00${N}` : `0${N}`) : never) : never;
type ListedCode = { [P in keyof typeof DOCUMENTED_CODES]: `${P}-${ThreeDigits<(typeof DOCUMENTED_CODES)[P][number]>}` }[keyof typeof DOCUMENTED_CODES];
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
/** Compiles only while the list above holds exactly the {@link ErrorCode}s: none missing, none too many. */
type ListedCodesAreErrorCodes = Holds<Exactly<ListedCode, ErrorCode>>;

const CODE_SHAPE = /^([A-Z]+)-(\d{3})$/;

/** True for a code the spec documents (an {@link ErrorCode}), false for one it does not list. */
export function isDocumentedCode(code: string): code is ErrorCode {
  const parts = CODE_SHAPE.exec(code);
  if (parts === null) return false;
  const [, prefix = '', number = ''] = parts;
  return Object.hasOwn(DOCUMENTED_CODES, prefix) && (DOCUMENTED_CODES[prefix as keyof typeof DOCUMENTED_CODES] as readonly number[]).includes(Number(number));
}
