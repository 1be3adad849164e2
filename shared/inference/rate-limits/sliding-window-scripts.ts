/**
 * The Lua scripts of the sliding-window rate limits in Redis (docs/inference.md#rate-limits), one per operation in
 * BullMQ's style: each runs as one command, so no two processes can interleave a check and an add.
 *
 * One limit of one scope is a sliding log of two keys sharing a hash tag: a sorted set whose members are the admitted
 * calls, `<entry id>|<weight>` (1 for a request, the tokens charged for tokens), scored by their admission time in ms,
 * and a string holding the sum of their weights (so a take costs O(log n) plus the entries it drops, not a scan).
 * Both expire together one hold after the last take. The clock is Redis `TIME`, never the caller's, so processes with
 * skewed clocks agree on every entry's age (Redis ≥ 5 replicates a script's effects, so `TIME` before a write is
 * legal).
 *
 * An entry counts while it is younger than the hold (the window, plus the allowance for the time between a call's
 * admission and its arrival at the provider): at most `limit` weight is ever admitted within any span of one hold.
 */

/** Parses the weight out of a member: the digits after its last `|`. */
const WEIGHT_OF = `
local function weight_of(member)
  return tonumber(string.match(member, '|(%d+)$'))
end
`;

/**
 * Admit a call's weight now if the window has room for it, else say how long until it has.
 *
 * KEYS[1] the log (sorted set), KEYS[2] the sum of its weights.
 * ARGV[1] hold in ms, ARGV[2] limit, ARGV[3] weight (a non-negative integer, at most the limit), ARGV[4] entry id.
 * Drops the entries older than the hold (subtracting their weights from the sum; a missing sum is recomputed from the
 * log), then, when the remaining sum plus
 * the weight fits the limit, adds the entry `<id>|<weight>` at the current time, refreshes both keys' expiry and
 * returns `{1, now}`; otherwise adds nothing and returns `{0, wait}`: the ms until the oldest entries whose leaving
 * makes room have left.
 */
export const SLIDING_TAKE = `${WEIGHT_OF}
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local hold = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local weight = tonumber(ARGV[3])
local gone = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - hold)
if #gone > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - hold) end
local stored = redis.call('GET', KEYS[2])
local sum = 0
if stored then
  sum = tonumber(stored)
  for _, member in ipairs(gone) do sum = sum - weight_of(member) end
else
  for _, member in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do sum = sum + weight_of(member) end
end
if sum < 0 or redis.call('ZCARD', KEYS[1]) == 0 then sum = 0 end
if sum + weight > limit then
  redis.call('SET', KEYS[2], sum, 'PX', hold)
  local excess = sum + weight - limit
  local entries = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
  for index = 1, #entries, 2 do
    excess = excess - weight_of(entries[index])
    if excess <= 0 then return {0, tonumber(entries[index + 1]) + hold - now} end
  end
  return {0, hold}
end
redis.call('ZADD', KEYS[1], now, ARGV[4] .. '|' .. weight)
redis.call('SET', KEYS[2], sum + weight, 'PX', hold)
redis.call('PEXPIRE', KEYS[1], hold)
return {1, now}
`;

/**
 * Change the weight of an admitted entry, keeping its admission time: the correction of a token estimate by the real
 * usage, or (weight 0) the give-back of a call that was not made.
 *
 * KEYS[1] the log, KEYS[2] the sum of its weights.
 * ARGV[1] the entry's member (`<id>|<old weight>`), ARGV[2] its new weight (a non-negative integer).
 * An entry that has already left the log is left alone (returns 0); otherwise it is replaced by `<id>|<new weight>` at
 * the same score (removed when the new weight is 0), the sum moves by the difference, and 1 is returned.
 */
export const SLIDING_REWEIGH = `${WEIGHT_OF}
local at = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not at then return 0 end
local old = weight_of(ARGV[1])
local new = tonumber(ARGV[2])
redis.call('ZREM', KEYS[1], ARGV[1])
if new > 0 then
  local id = string.match(ARGV[1], '^(.*)|%d+$')
  redis.call('ZADD', KEYS[1], at, id .. '|' .. new)
end
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('INCRBY', KEYS[2], new - old) end
return 1
`;

/**
 * Move an admitted entry to the current time: its call's request is leaving now, and the provider counts it from its
 * arrival, not from its admission. An entry already dropped from the log is added back (its call is being made).
 *
 * KEYS[1] the log, KEYS[2] the sum of its weights.
 * ARGV[1] hold in ms, ARGV[2] the entry's member (`<id>|<weight>`).
 * Sets the entry's score to Redis's current time (adding its weight to the sum when it was dropped), refreshes both
 * keys' expiry to one hold from now, and returns 1 (0 when it was added back).
 */
export const SLIDING_RESTAMP = `${WEIGHT_OF}
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local hold = tonumber(ARGV[1])
local kept = 1
if not redis.call('ZSCORE', KEYS[1], ARGV[2]) then
  kept = 0
  if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('INCRBY', KEYS[2], weight_of(ARGV[2])) end
end
redis.call('ZADD', KEYS[1], now, ARGV[2])
redis.call('PEXPIRE', KEYS[1], hold)
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('PEXPIRE', KEYS[2], hold) end
return kept
`;
