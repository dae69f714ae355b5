import { assertNever, DIGEST_UNITS, type WorkflowStepType } from '../entities/channel';
import type { FieldErrors } from '../errors';
import { compact, ControlReader, isObject, type JsonObject } from './control-reader';
import { validateJsonLogic, type JsonLogicRule } from './json-logic';
import { exceedsMaxDelay, MAX_DELAY_DAYS, type DurationUnit } from './durations';
import { cronProblem } from './schedule';

export const REDIRECT_TARGETS = ['_self', '_blank', '_parent', '_top', '_unfencedTop'] as const;
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;
export const THROTTLE_UNITS = ['minutes', 'hours', 'days'] as const;
const WEEK_DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
const ORDINALS = ['1', '2', '3', '4', '5', 'last'] as const;
const ORDINAL_VALUES = ['day', 'weekday', 'weekend', ...WEEK_DAYS] as const;

export interface ValidatedControls {
  controlValues: JsonObject;
  skip: JsonLogicRule | boolean | null;
}

// One cron field: comma-separated *, values, ranges, steps, month/day names and Quartz's L W # ?.
const CRON_ITEM = String.raw`(?:\*|\?|L|LW|\d{1,2}[LW]|\d{1,4}(?:-\d{1,4})?|[A-Za-z]{3}(?:-[A-Za-z]{3})?|\w{1,3}#[1-5])(?:/\d{1,4})?`;
const CRON_FIELD = new RegExp(`^${CRON_ITEM}(?:,${CRON_ITEM})*$`);

/** Five or six cron fields (or a @macro); the scheduler computes the actual run times. */
export function isCronExpression(value: string): boolean {
  if (/^@(yearly|annually|monthly|weekly|daily|hourly)$/.test(value.trim())) return true;
  const fields = value.trim().split(/\s+/);
  return (fields.length === 5 || fields.length === 6) && fields.every((f) => CRON_FIELD.test(f));
}

function cron(r: ControlReader, key: string): string | undefined {
  const value = r.string(key);
  if (value !== undefined && value !== '' && (!isCronExpression(value) || cronProblem(value))) {
    return r.fail(key, 'must be a cron expression, e.g. "0 9 * * 1-5"');
  }
  return value;
}

/** amount + unit, refused past the longest delay Herald holds (MAX_DELAY_DAYS). */
function duration(r: ControlReader, amountKey = 'amount', unitKey = 'unit', units: readonly DurationUnit[] = DIGEST_UNITS) {
  const amount = r.number(amountKey);
  const unit = r.oneOf(unitKey, units);
  if (amount !== undefined && unit !== undefined && exceedsMaxDelay(amount, unit)) {
    return { amount: r.fail(amountKey, `must be at most ${MAX_DELAY_DAYS} days in ${unit} (the longest delay Herald holds)`), unit };
  }
  return { amount, unit };
}

function redirect(r: ControlReader | undefined) {
  if (!r) return undefined;
  const url = r.string('url');
  if (url === undefined) r.fail('url', 'is required in a redirect');
  const value = compact({ url, target: r.oneOf('target', REDIRECT_TARGETS) });
  r.rejectUnknown('a redirect');
  return value;
}

function action(r: ControlReader | undefined) {
  if (!r) return undefined;
  const value = compact({ label: r.string('label'), redirect: redirect(r.object('redirect')) });
  r.rejectUnknown('an action');
  return value;
}

function keyValuePairs(r: ControlReader, key: string) {
  const items = r.array(key);
  if (!items) return undefined;
  items.forEach((item, i) => {
    const at = `${key}[${i}]`;
    if (!isObject(item) || typeof item.key !== 'string' || typeof item.value !== 'string' || Object.keys(item).length !== 2) {
      r.errors[r.at(at)] = { messages: ['must be an object with string key and value'], value: item };
    } else if (item.key.trim() === '') r.errors[r.at(`${at}.key`)] = { messages: ['must not be empty'], value: item.key };
  });
  return items;
}

function timedConfig(r: ControlReader | undefined) {
  if (!r) return undefined;
  const atTime = r.string('atTime');
  if (atTime !== undefined && !/^([01]\d|2[0-3]):[0-5]\d$/.test(atTime)) r.fail('atTime', 'must be a time of day as HH:mm');
  const weekDays = r.array('weekDays');
  if (weekDays?.some((d) => !(WEEK_DAYS as readonly unknown[]).includes(d))) r.fail('weekDays', `must list days among ${WEEK_DAYS.join(', ')}`);
  const monthDays = r.array('monthDays');
  if (monthDays?.some((d) => !Number.isInteger(d) || (d as number) < 1 || (d as number) > 31)) r.fail('monthDays', 'must list days 1-31');
  const untilDate = r.string('untilDate');
  if (untilDate !== undefined && Number.isNaN(Date.parse(untilDate))) r.fail('untilDate', 'must be an ISO 8601 date');
  const value = compact({
    atTime,
    weekDays,
    monthDays,
    ordinal: r.oneOf('ordinal', ORDINALS),
    ordinalValue: r.oneOf('ordinalValue', ORDINAL_VALUES),
    monthlyType: r.oneOf('monthlyType', ['each', 'on'] as const),
    cronExpression: cron(r, 'cronExpression'),
    untilDate,
  });
  r.rejectUnknown('a timed digest');
  return value;
}

function lookBackWindow(r: ControlReader | undefined) {
  if (!r) return undefined;
  const { amount, unit } = duration(r);
  if (r.source.amount === undefined) r.fail('amount', 'is required in a look-back window');
  if (r.source.unit === undefined) r.fail('unit', 'is required in a look-back window');
  r.rejectUnknown('a look-back window');
  return compact({ amount, unit });
}

function digest(r: ControlReader) {
  const type = r.oneOf('type', ['regular', 'timed', 'backoff'] as const);
  const { amount: backoffAmount, unit: backoffUnit } = duration(r, 'backoffAmount', 'backoffUnit');
  // A backoff digest is a regular digest that only waits when an event arrived within the window:
  // stored in the lookBackWindow form every client reads.
  const window =
    type === 'backoff' ? compact({ amount: backoffAmount, unit: backoffUnit }) : lookBackWindow(r.object('lookBackWindow'));
  if (type === 'backoff' && (backoffAmount === undefined || backoffUnit === undefined)) {
    r.fail(backoffAmount === undefined ? 'backoffAmount' : 'backoffUnit', 'is required for a backoff digest');
  }
  return compact({
    type: type === 'backoff' ? 'regular' : type,
    ...duration(r),
    digestKey: r.string('digestKey'),
    lookBackWindow: window && Object.keys(window).length ? window : undefined,
    cron: cron(r, 'cron'),
    timed: timedConfig(r.object('timed')),
    extendToSchedule: r.boolean('extendToSchedule'),
  });
}

function controlsOf(type: WorkflowStepType, r: ControlReader): JsonObject {
  switch (type) {
    case 'in_app':
      return compact({
        subject: r.string('subject'),
        body: r.string('body'),
        avatar: r.string('avatar'),
        primaryAction: action(r.object('primaryAction')),
        secondaryAction: action(r.object('secondaryAction')),
        redirect: redirect(r.object('redirect')),
        data: r.json('data'),
        disableOutputSanitization: r.boolean('disableOutputSanitization'),
      });
    case 'email': {
      const from = r.object('from');
      return compact({
        subject: r.string('subject'),
        body: r.string('body'),
        editorType: r.oneOf('editorType', ['html', 'block'] as const),
        preheader: r.string('preheader'),
        replyTo: r.string('replyTo'),
        layoutId: r.nullableString('layoutId'),
        from: from && (from.rejectUnknown('a sender'), compact({ email: from.string('email'), name: from.string('name') })),
        useProviderDefaults: r.boolean('useProviderDefaults'),
        disableOutputSanitization: r.boolean('disableOutputSanitization'),
      });
    }
    case 'sms':
      return compact({ body: r.string('body') });
    case 'chat':
      return compact({ body: r.string('body'), editorType: r.oneOf('editorType', ['text', 'block'] as const) });
    case 'push':
      return compact({ subject: r.string('subject'), body: r.string('body') });
    case 'digest':
      return digest(r);
    case 'delay':
      // dynamic: the date is read from the payload path in dynamicKey.
      return compact({
        type: r.oneOf('type', ['regular', 'timed', 'dynamic'] as const),
        ...duration(r),
        cron: cron(r, 'cron'),
        timed: timedConfig(r.object('timed')),
        dynamicKey: r.string('dynamicKey'),
        // Move the end of the wait to the next opening of the subscriber's delivery schedule.
        extendToSchedule: r.boolean('extendToSchedule'),
      });
    case 'throttle':
      return compact({
        type: r.oneOf('type', ['fixed', 'dynamic'] as const),
        ...duration(r, 'amount', 'unit', THROTTLE_UNITS),
        threshold: r.number('threshold', { min: 1, integer: true, exclusiveMin: false }) ?? 1,
        throttleKey: r.string('throttleKey'),
        dynamicKey: r.string('dynamicKey'),
      });
    case 'http_request': {
      const body = r.source.body;
      return compact({
        method: r.oneOf('method', HTTP_METHODS) ?? 'POST',
        url: r.string('url'),
        headers: keyValuePairs(r, 'headers'),
        body: typeof body === 'string' || body === undefined ? r.string('body') : keyValuePairs(r, 'body'),
        responseBodySchema: r.json('responseBodySchema'),
        enforceSchemaValidation: r.boolean('enforceSchemaValidation'),
        continueOnFailure: r.boolean('continueOnFailure'),
      });
    }
    case 'custom':
      // Free JSON: whatever the step should output for later steps.
      return { ...r.source };
    default:
      return assertNever(type, 'step type');
  }
}

const KIND: Record<WorkflowStepType, string> = {
  in_app: 'an in_app step',
  email: 'an email step',
  sms: 'an sms step',
  chat: 'a chat step',
  push: 'a push step',
  digest: 'a digest step',
  delay: 'a delay step',
  throttle: 'a throttle step',
  http_request: 'an http_request step',
  custom: 'a custom step',
};

/**
 * Checks a step's control values against its type and returns them normalised (known keys only,
 * defaults applied, `skip` split out). Wrong types, unknown keys and malformed nested objects are
 * added to `errors` under `path` (e.g. `steps[1].controlValues.body`); missing required values are
 * not errors here: they become MISSING_VALUE issues, so a draft workflow can be saved.
 */
export function validateStepControls(type: WorkflowStepType, raw: unknown, path: string, errors: FieldErrors): ValidatedControls {
  if (raw === undefined || raw === null) return { controlValues: type === 'http_request' ? { method: 'POST' } : {}, skip: null };
  if (!isObject(raw)) {
    errors[path] = { messages: ['must be an object'], value: raw };
    return { controlValues: {}, skip: null };
  }
  const { skip, ...rest } = raw;
  const reader = new ControlReader(rest, path, errors);
  const controlValues = controlsOf(type, reader);
  if (type !== 'custom') reader.rejectUnknown(KIND[type]);
  let rule: JsonLogicRule | boolean | null = null;
  if (skip !== undefined && skip !== null) {
    const problems = validateJsonLogic(skip, `${path}.skip`);
    if (problems.length) errors[`${path}.skip`] = { messages: problems, value: skip };
    else rule = skip as JsonLogicRule | boolean;
  }
  return { controlValues, skip: rule };
}
