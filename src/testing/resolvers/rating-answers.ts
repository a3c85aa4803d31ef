import type { AnswerInput } from '../../generated/graphql.js';
import { fail } from '../graphql/coded-error.js';
import type { AnswerRecord, FormFieldRecord, FormRecord } from '../model/records.js';

const OPTION_TYPES = new Set(['select', 'multi_select', 'checkbox']);

function invalid(reason: string, fieldId?: string): never {
  fail('MEETING-015', `answer validation failed: ${reason}`, fieldId === undefined ? { reason } : { reason, fieldId });
}

/** The values an answer gives, whichever of `value` / `values` it used. */
function chosenValues(answer: AnswerRecord): string[] {
  if (answer.values !== null) return answer.values;
  return answer.value === null || answer.value === '' ? [] : [answer.value];
}

function checkAnswer(field: FormFieldRecord, answer: AnswerRecord): void {
  if (field.type === 'address') invalid('address fields are not supported', field.id);
  const chosen = chosenValues(answer);
  if (OPTION_TYPES.has(field.type)) {
    if (field.type === 'select' && chosen.length > 1) invalid('a select field takes one value', field.id);
    const unknown = chosen.find((value) => !field.options.includes(value));
    if (unknown !== undefined) invalid('invalid option', field.id);
  }
  if (field.type === 'number' && chosen.some((value) => !Number.isFinite(Number(value)))) invalid('not a number', field.id);
}

/**
 * Validates a custom-mode answer set against the form (MEETING-015): unknown or duplicate
 * `fieldId`, both `value` and `values`, a missing required field, an invalid option, or an
 * address field. Returns the answers to store.
 */
export function validateAnswers(form: FormRecord, answers: readonly AnswerInput[]): AnswerRecord[] {
  const fields = new Map(form.fields.map((field) => [field.id, field]));
  const seen = new Set<string>();
  const records: AnswerRecord[] = [];
  for (const answer of answers) {
    const field = fields.get(answer.fieldId);
    if (!field) invalid('unknown fieldId', answer.fieldId);
    if (seen.has(answer.fieldId)) invalid('duplicate fieldId', answer.fieldId);
    seen.add(answer.fieldId);
    if (answer.value !== null && answer.value !== undefined && answer.values !== null && answer.values !== undefined) {
      invalid('both value and values are set', answer.fieldId);
    }
    const record: AnswerRecord = { fieldId: answer.fieldId, value: answer.value ?? null, values: answer.values ?? null };
    checkAnswer(field, record);
    records.push(record);
  }
  for (const field of form.fields) {
    const answer = records.find((record) => record.fieldId === field.id);
    if (field.required && (answer === undefined || chosenValues(answer).length === 0)) invalid('missing required field', field.id);
  }
  return records;
}
