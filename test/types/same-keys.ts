/** True when `A` and `B` have the same keys, so a field cannot be missing from (or invented in) either side. */
export type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
