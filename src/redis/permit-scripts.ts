import { ACQUIRE_RESET_CHECK } from './acquire-reset-check.js';
import { LuaScript } from './lua-script.js';

/*
 * The Redis side of the permit rule. Each script runs atomically, so every process sharing a
 * bucket sees one order of events, and reads one clock: Redis TIME (unless a test passes its own
 * clock as the last ARGV; an empty string means TIME).
 *
 * Per bucket:
 *   KEYS answered   sorted set: permit id -> epoch ms when it stops counting (answer + window)
 *   KEYS in-flight  sorted set: permit id -> epoch ms when its lease ends
 *   KEYS paused     string: epoch ms when the pause after a 429 ends
 *   KEYS interactive sorted set: 'present' -> epoch ms when interactive traffic stops counting as
 *                   present; 'fresh' -> epoch ms when the first window of interactive traffic or
 *                   of a background burst ends; 'waiter:<id>' -> epoch ms when the slot held for
 *                   a refused interactive queue is let go
 *   KEYS learnt     string: the limit the server stated
 *   KEYS background sorted set: background permit id -> epoch ms when it stops counting (in flight:
 *                   lease end + window; answered: answer + window)
 * Every write extends the key's PEXPIRE to cover what it holds, so an idle bucket vanishes. Key
 * expiry runs on Redis's real time; with a test clock (virtual time) it gets ten minutes more, so a
 * slow machine cannot expire permits that the virtual clock still counts.
 */
export const PRELUDE = `
local function clock(override)
  if override ~= '' then return tonumber(override) end
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
local function extend_ttl(key, ms, override)
  if override ~= '' then ms = ms + 600000 end
  if redis.call('PTTL', key) < ms then redis.call('PEXPIRE', key, ms) end
end
`;

/**
 * KEYS: answered, in-flight, paused, interactive, learnt-limit, background, then the store-reset
 * check's: generation, recovery (see src/redis/acquire-reset-check.ts).
 * ARGV: limit, windowMs, leaseMs, new permit id, clock, lane, reserve, waiter ('' for none),
 * limitIsCeiling ('1' or '0'), share, hold grace ms, then the store-reset check's four.
 * Replies `{1, permitId, appliedLimit, counted}` (requests counted with this one) when granted, else
 * `{0, retryAfterMs, paused (1|0), appliedLimit}`; the store-reset check appends the generation and
 * the recovery left (ms) to either.
 * The same rule as `MemoryPermitStore` (see src/rate-limit/lane-rule.ts).
 */
export const acquireScript = new LuaScript(`${PRELUDE}
local answered, in_flight, paused, interactive, learnt_key, background = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local limit, window, lease = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local now = clock(ARGV[5])
local is_interactive = ARGV[6] ~= 'background'
local waiter = ARGV[8]
${ACQUIRE_RESET_CHECK}

-- A lease that ended unreleased counts as answered at its end.
local ended = redis.call('ZRANGEBYSCORE', in_flight, '-inf', now, 'WITHSCORES')
for i = 1, #ended, 2 do
  redis.call('ZADD', answered, tonumber(ended[i + 1]) + window, ended[i])
end
if #ended > 0 then
  redis.call('ZREMRANGEBYSCORE', in_flight, '-inf', now)
  extend_ttl(answered, window, ARGV[5])
end
redis.call('ZREMRANGEBYSCORE', answered, '-inf', now)
redis.call('ZREMRANGEBYSCORE', interactive, '-inf', now)
redis.call('ZREMRANGEBYSCORE', background, '-inf', now)

-- A learnt limit replaces the request's, or only lowers it when the request's was configured.
local learnt = redis.call('GET', learnt_key)
if learnt then
  learnt = tonumber(learnt)
  if ARGV[9] == '1' then limit = math.min(limit, learnt) else limit = learnt end
end
local applied = limit
local share = tonumber(ARGV[10])
if share < 1 then limit = math.max(1, math.floor(limit * share)) end

local function raise(member, until_ms)
  local current = tonumber(redis.call('ZSCORE', interactive, member) or '0')
  if current < until_ms then redis.call('ZADD', interactive, until_ms, member) end
end
if is_interactive then
  -- Interactive traffic that starts (again) opens a first window.
  if not redis.call('ZSCORE', interactive, 'present') then raise('fresh', now + window) end
  raise('present', now + window)
  extend_ttl(interactive, window, ARGV[5])
end
local present = redis.call('ZSCORE', interactive, 'present')
local fresh = redis.call('ZSCORE', interactive, 'fresh')
local held = redis.call('ZCARD', interactive)
if present then held = held - 1 end
if fresh then held = held - 1 end

local retry_at
local is_paused = 0
local paused_until = tonumber(redis.call('GET', paused) or '0')
if paused_until > now then
  retry_at = paused_until
  is_paused = 1
else
  local answered_count = redis.call('ZCARD', answered)
  local counted = answered_count + redis.call('ZCARD', in_flight)
  local background_count = redis.call('ZCARD', background)
  local room = limit
  local background_room = math.huge
  if not is_interactive then
    local reserve = 0
    if present then reserve = math.min(tonumber(ARGV[7]), limit - 1) end
    room = limit - held
    if reserve > 0 then room = room - 1 end
    -- The first window of interactive traffic or of a background burst: background keeps to
    -- limit - reserve.
    if present and (fresh or background_count == 0) then background_room = limit - reserve end
  end
  if counted < room and background_count < background_room then
    redis.call('ZADD', in_flight, now + lease, ARGV[4])
    extend_ttl(in_flight, lease + window, ARGV[5])
    if not is_interactive then
      if background_count == 0 then
        raise('fresh', now + window)
        extend_ttl(interactive, window, ARGV[5])
      end
      redis.call('ZADD', background, now + lease + window, ARGV[4])
      extend_ttl(background, lease + window, ARGV[5])
    end
    if learnt then extend_ttl(learnt_key, lease + window, ARGV[5]) end
    if is_interactive and waiter ~= '' then redis.call('ZREM', interactive, 'waiter:' .. waiter) end
    return with_generation({1, ARGV[4], applied, counted + 1})
  end
  -- Refused: ask again when enough counted requests (and, for background, enough background ones)
  -- have left; background also when a hold or the interactive presence ends.
  retry_at = now
  if counted >= room then
    retry_at = math.huge
    local needed = counted - room + 1
    if needed >= 1 and needed <= answered_count then
      retry_at = tonumber(redis.call('ZRANGE', answered, needed - 1, needed - 1, 'WITHSCORES')[2])
    else
      local first_lease = redis.call('ZRANGE', in_flight, 0, 0, 'WITHSCORES')[2]
      if first_lease then retry_at = tonumber(first_lease) end
    end
  end
  if background_count >= background_room then
    local needed = background_count - background_room + 1
    local frees = redis.call('ZRANGE', background, needed - 1, needed - 1, 'WITHSCORES')[2]
    retry_at = math.max(retry_at, frees and tonumber(frees) or math.huge)
  end
  if not is_interactive then
    local first_hold = redis.call('ZRANGE', interactive, 0, 0, 'WITHSCORES')[2]
    if first_hold then retry_at = math.min(retry_at, tonumber(first_hold)) end
  end
  if retry_at == math.huge or retry_at <= now then retry_at = now + window end
end

local retry_after = retry_at - now
if is_interactive and waiter ~= '' then
  local hold_ms = math.min(retry_after, window) + tonumber(ARGV[11])
  redis.call('ZADD', interactive, now + hold_ms, 'waiter:' .. waiter)
  -- Interactive traffic stays present while a refused queue waits.
  raise('present', now + hold_ms)
  extend_ttl(interactive, hold_ms, ARGV[5])
end
return with_generation({0, retry_after, is_paused, applied})
`);

/**
 * KEYS: answered, in-flight, background. ARGV: permit id, windowMs, clock.
 * Replies 1 when an in-flight permit was released, else 0 (unknown, or its lease had ended).
 */
export const releaseScript = new LuaScript(`${PRELUDE}
local answered, in_flight, background = KEYS[1], KEYS[2], KEYS[3]
local window = tonumber(ARGV[2])
local counted_until = clock(ARGV[3]) + window

local function recount_background()
  local until_now = redis.call('ZSCORE', background, ARGV[1])
  if until_now then redis.call('ZADD', background, counted_until, ARGV[1]) end
end

if redis.call('ZREM', in_flight, ARGV[1]) == 1 then
  redis.call('ZADD', answered, counted_until, ARGV[1])
  extend_ttl(answered, window, ARGV[3])
  recount_background()
  return 1
end
-- A response after the lease ended: the request may have reached the server up to now, so it
-- counts until a window after this answer, later than the lease's end would say.
local lease_counted_until = redis.call('ZSCORE', answered, ARGV[1])
if lease_counted_until and tonumber(lease_counted_until) < counted_until then
  redis.call('ZADD', answered, counted_until, ARGV[1])
  extend_ttl(answered, window, ARGV[3])
  recount_background()
  extend_ttl(background, window, ARGV[3])
end
return 0
`);

/**
 * KEYS: in-flight, background. ARGV: permit id.
 * The permit's request never left: it stops counting now. Replies 1 when an in-flight permit was
 * given back, else 0 (unknown or released: left as it is).
 */
export const giveBackScript = new LuaScript(`
if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('ZREM', KEYS[2], ARGV[1])
return 1
`);

/**
 * KEYS: paused. ARGV: pause duration in ms (from the caller's clock), clock.
 * Never shortens a longer pause. Replies 1.
 */
export const pauseScript = new LuaScript(`${PRELUDE}
local now = clock(ARGV[2])
local until_ms = now + tonumber(ARGV[1])
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local px = until_ms - now
if ARGV[2] ~= '' then px = px + 600000 end
if until_ms > current then redis.call('SET', KEYS[1], until_ms, 'PX', px) end
return 1
`);

/**
 * KEYS: learnt-limit. ARGV: limit, keepMs, clock.
 * Records the limit the server stated; keeps it at least keepMs (longer while the bucket is used).
 */
export const learnLimitScript = new LuaScript(`${PRELUDE}
local px = tonumber(ARGV[2])
if ARGV[3] ~= '' then px = px + 600000 end
px = math.max(px, redis.call('PTTL', KEYS[1]))
redis.call('SET', KEYS[1], ARGV[1], 'PX', px)
return 1
`);
