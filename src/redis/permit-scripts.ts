import { ACQUIRE_RESET_CHECK } from './acquire-reset-check.js';
import { LuaScript } from './lua-script.js';
import { RELEASE_PERMITS } from './release-permits-lua.js';

/*
 * The Redis side of the permit rule. Each script runs atomically, so every process sharing a
 * bucket sees one order of events, and reads one clock: Redis TIME (unless a test passes its own
 * clock as the last ARGV; an empty string means TIME).
 *
 * Per bucket (src/redis/permit-keys.ts):
 *   KEYS answered     sorted set: permit id -> epoch ms of its answer (it counts a window more)
 *   KEYS in-flight    sorted set: permit id -> epoch ms when its lease ends
 *   KEYS paused       string: epoch ms when the pause after a 429 ends
 *   KEYS interactive  sorted set of interactive demand: 'waiter:<id>' -> epoch ms when the slot held
 *                     for a refused interactive queue is let go; 'peak:<n>' -> until when n
 *                     interactive permits counted at once is remembered; 'burst:<n>' -> until when
 *                     n interactive requests in flight or asking at once is remembered;
 *                     'ramp:<start>' -> until when the bulk job that began at <start> is
 *                     remembered (RAMP_RESTART_WINDOWS windows: background work that finds none
 *                     counted before then goes on with it, unramped)
 *   KEYS learnt       string: the limit the server stated
 *   KEYS background   sorted set: background permit id -> its latest possible answer (lease end while
 *                     in flight, then its answer); it counts a window after that
 *   KEYS learnt-window string: the window the server's answers revealed
 *   KEYS interactive-permits sorted set: interactive permit id -> as for background
 *   KEYS sent         sorted set: counted permit id -> epoch ms when it was granted
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
 * KEYS: answered, in-flight, paused, interactive, learnt-limit, background, learnt-window,
 * interactive-permits, sent, then the store-reset check's: generation, recovery (see
 * src/redis/acquire-reset-check.ts).
 * ARGV: limit, windowMs, leaseMs, new permit id, clock, lane, reserve, waiter ('' for none),
 * limitIsCeiling ('1' or '0'), share, hold grace ms, windowIsFloor ('1' or '0'), demand, burst
 * memory in windows, ramp, ramp restart in windows, burst ('' when the caller did not tell), queue
 * memory in windows, batch ('1' or '0'), more permit ids ('<id> <id> ...', '' for none: permits
 * for the calls waiting behind this one, granted at this instant as far as the rule allows), the
 * store's releases riding with this request ('<id> <ms ago> ...', '' for none:
 * src/redis/release-permits-lua.ts, applied once the reset check passed, before the rule), then
 * the store-reset check's four.
 * Replies `{1, permitId, appliedLimit, counted, appliedWindow, oldestSentAgoMs, granted}` when
 * granted (counted: the requests counted with the first permit; granted: how many of the ids, from
 * the first, were granted), else `{0, retryAfterMs, paused (1|0), appliedLimit, appliedWindow}`; the
 * store-reset check appends the generation and the recovery left (ms) to either, and then how many
 * riding releases were in flight. A refusal of the reset check itself ends with the generation and
 * the recovery left (no release was applied).
 * The same rule as `MemoryPermitStore` (see src/rate-limit/lane-rule.ts).
 */
export const acquireScript = new LuaScript(`${PRELUDE}${RELEASE_PERMITS}
local answered, in_flight, paused, markers, learnt_key, background = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local learnt_window_key, interactive, sent = KEYS[7], KEYS[8], KEYS[9]
local limit, window, lease = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local now = clock(ARGV[5])
local is_interactive = ARGV[6] ~= 'background'
local waiter = ARGV[8]
${ACQUIRE_RESET_CHECK}
-- The riding releases, once the data is the generation the store expects; the rule's replies end
-- with how many of them were in flight (after the generation and the recovery left).
local riding_released = release_permits(answered, in_flight, background, interactive, ARGV[#ARGV - 4], now, tonumber(ARGV[2]), ARGV[5])
local with_generation_only = with_generation
with_generation = function(reply)
  reply = with_generation_only(reply)
  reply[#reply + 1] = riding_released
  return reply
end

-- A learnt limit replaces the request's, or only lowers it when the request's was configured; a
-- learnt window replaces the request's, or only lengthens it when the request's was configured.
local learnt = redis.call('GET', learnt_key)
if learnt then
  learnt = tonumber(learnt)
  if ARGV[9] == '1' then limit = math.min(limit, learnt) else limit = learnt end
end
local learnt_window = redis.call('GET', learnt_window_key)
if learnt_window then
  learnt_window = tonumber(learnt_window)
  if ARGV[12] == '1' then window = math.max(window, learnt_window) else window = learnt_window end
end
local applied = limit
local share = tonumber(ARGV[10])
if share < 1 then limit = math.max(1, math.floor(limit * share)) end

-- A lease that ended unreleased counts as answered at its end; counts a window old end.
local ended = redis.call('ZRANGEBYSCORE', in_flight, '-inf', now, 'WITHSCORES')
for i = 1, #ended, 2 do
  redis.call('ZADD', answered, ended[i + 1], ended[i])
end
if #ended > 0 then
  redis.call('ZREMRANGEBYSCORE', in_flight, '-inf', now)
  extend_ttl(answered, window, ARGV[5])
end
local since = now - window
local gone = redis.call('ZRANGEBYSCORE', answered, '-inf', since)
for i = 1, #gone, 1000 do
  redis.call('ZREM', sent, unpack(gone, i, math.min(i + 999, #gone)))
end
redis.call('ZREMRANGEBYSCORE', answered, '-inf', since)
redis.call('ZREMRANGEBYSCORE', background, '-inf', since)
redis.call('ZREMRANGEBYSCORE', interactive, '-inf', since)
redis.call('ZREMRANGEBYSCORE', markers, '-inf', now)

local function raise(member, until_ms)
  local current = tonumber(redis.call('ZSCORE', markers, member) or '0')
  if current < until_ms then redis.call('ZADD', markers, until_ms, member) end
  extend_ttl(markers, until_ms - now, ARGV[5])
end
if is_interactive then
  -- What interactive traffic asks for: its requests in flight (a burst, remembered for a while)
  -- or counted (its share, remembered for a window), and the calls waiting now.
  local demand = tonumber(ARGV[13])
  local at_once = redis.call('ZCOUNT', interactive, '(' .. now, '+inf') + demand
  local burst = tonumber(ARGV[17]) or at_once
  if burst >= 2 then raise('burst:' .. burst, now + tonumber(ARGV[14]) * window) end
  if at_once >= 2 then raise('burst:' .. at_once, now + tonumber(ARGV[18]) * window) end
  raise('peak:' .. (redis.call('ZCARD', interactive) + demand), now + window)
end

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
  local ramp, ramp_end, ramp_held, new_job = 0, 0, 0, false
  if not is_interactive then
    local holds, peak, burst, ramp_start = 0, redis.call('ZCARD', interactive), 0, -math.huge
    for _, member in ipairs(redis.call('ZRANGE', markers, 0, -1)) do
      local kind, level = string.match(member, '^(%a+):(.*)$')
      if kind == 'waiter' then holds = holds + 1
      elseif kind == 'peak' then peak = math.max(peak, tonumber(level))
      elseif kind == 'burst' then burst = math.max(burst, tonumber(level))
      elseif kind == 'ramp' then ramp_start = math.max(ramp_start, tonumber(level)) end
    end
    local reserve = tonumber(ARGV[7])
    local kept_free = math.min(limit - 1, math.max(reserve, burst))
    if peak > 0 then kept_free = math.min(limit - 1, math.max(kept_free, 1)) end
    room = limit - holds - kept_free
    -- A background permit that finds none counted, well after the latest job began, starts a new
    -- bulk job, whose first window hands out its last ramp slots evenly across the window.
    new_job = background_count == 0 and now - ramp_start >= tonumber(ARGV[16]) * window
    if new_job then ramp_start = now end
    ramp = tonumber(ARGV[15])
    if ramp > 0 then
      ramp_end = ramp_start + window
      if ramp_end > now then ramp_held = math.min(limit - 1, math.ceil(ramp * math.min(1, (ramp_end - now) / window))) end
    end
    background_room = limit - math.min(limit - 1, peak + ramp_held)
    -- Batch mode: nothing kept for interactive traffic but the slots held for refused queues.
    if ARGV[19] == '1' then room, background_room, ramp_held = limit - holds, limit, 0 end
  end
  if counted < room and background_count < background_room then
    -- This permit, and one for each waiting call's id as far as the rule allows at this instant:
    -- what the same requests made one after another now would get (nothing above changes with a
    -- grant but the two counts).
    local ids = {ARGV[4]}
    for id in string.gmatch(ARGV[20], '%S+') do ids[#ids + 1] = id end
    local grants = math.min(#ids, room - counted, background_room - background_count, recovery_room)
    local leases, sends = {}, {}
    for g = 1, grants do
      leases[2 * g - 1], leases[2 * g] = now + lease, ids[g]
      sends[2 * g - 1], sends[2 * g] = now, ids[g]
    end
    redis.call('ZADD', in_flight, unpack(leases))
    redis.call('ZADD', sent, unpack(sends))
    extend_ttl(in_flight, lease + window, ARGV[5])
    extend_ttl(sent, lease + window, ARGV[5])
    if is_interactive then
      redis.call('ZADD', interactive, unpack(leases))
      extend_ttl(interactive, lease + window, ARGV[5])
      if waiter ~= '' then redis.call('ZREM', markers, 'waiter:' .. waiter) end
    else
      if new_job then raise('ramp:' .. now, now + tonumber(ARGV[16]) * window) end
      redis.call('ZADD', background, unpack(leases))
      extend_ttl(background, lease + window, ARGV[5])
    end
    if learnt then extend_ttl(learnt_key, lease + window, ARGV[5]) end
    if learnt_window then extend_ttl(learnt_window_key, lease + window, ARGV[5]) end
    local oldest = redis.call('ZRANGE', sent, 0, 0, 'WITHSCORES')[2]
    return with_generation({1, ARGV[4], applied, counted + 1, window, now - tonumber(oldest or now), grants})
  end
  -- Refused: ask again when enough counted requests (and, for background, enough background ones)
  -- have left; background also when a hold or a remembered interactive level ends.
  retry_at = now
  if counted >= room then
    retry_at = math.huge
    local needed = counted - room + 1
    if needed >= 1 and needed <= answered_count then
      retry_at = tonumber(redis.call('ZRANGE', answered, needed - 1, needed - 1, 'WITHSCORES')[2]) + window
    else
      local first_lease = redis.call('ZRANGE', in_flight, 0, 0, 'WITHSCORES')[2]
      if first_lease then retry_at = tonumber(first_lease) end
    end
  end
  if background_count >= background_room then
    local needed = background_count - background_room + 1
    local frees = redis.call('ZRANGE', background, needed - 1, needed - 1, 'WITHSCORES')[2]
    retry_at = math.max(retry_at, frees and tonumber(frees) + window or math.huge)
  end
  if not is_interactive then
    local first_relief = redis.call('ZRANGE', markers, 0, 0, 'WITHSCORES')[2]
    if first_relief then retry_at = math.min(retry_at, tonumber(first_relief)) end
    if ramp_held > 0 then retry_at = math.min(retry_at, math.ceil(ramp_end - (ramp_held - 1) * window / ramp)) end
  end
  -- A relief due now (a ramp step at this very millisecond) means ask again at once, not a window later.
  if retry_at == math.huge then retry_at = now + window elseif retry_at <= now then retry_at = now + 1 end
end

local retry_after = retry_at - now
if is_interactive and waiter ~= '' then
  raise('waiter:' .. waiter, now + math.min(retry_after, window) + tonumber(ARGV[11]))
end
return with_generation({0, retry_after, is_paused, applied, window})
`);

/**
 * KEYS: answered, in-flight, background, interactive-permits. ARGV: windowMs (for the keys'
 * expiry), clock, the permits answered ('<id> <ms ago> ...', see src/redis/release-permits-lua.ts).
 * Replies how many of them were in flight (the others: unknown, or their lease had ended).
 */
export const releaseScript = new LuaScript(`${PRELUDE}${RELEASE_PERMITS}
return release_permits(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[3], clock(ARGV[2]), tonumber(ARGV[1]), ARGV[2])
`);

/**
 * KEYS: in-flight, then the sets it may also be in (background, interactive permits, sent). ARGV: permit id.
 * The permit's request never left: it stops counting now. Replies 1 when an in-flight permit was
 * given back, else 0 (unknown or released: left as it is).
 */
export const giveBackScript = new LuaScript(`
if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then return 0 end
for i = 2, #KEYS do redis.call('ZREM', KEYS[i], ARGV[1]) end
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
 * KEYS: learnt-limit or learnt-window. ARGV: the value, keepMs, clock.
 * Records the limit the server stated, or the window its answers revealed; keeps it at least keepMs
 * (longer while the bucket is used).
 */
export const learnBudgetScript = new LuaScript(`${PRELUDE}
local px = tonumber(ARGV[2])
if ARGV[3] ~= '' then px = px + 600000 end
px = math.max(px, redis.call('PTTL', KEYS[1]))
redis.call('SET', KEYS[1], ARGV[1], 'PX', px)
return 1
`);
