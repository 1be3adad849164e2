/**
 * The Lua of the dispatch gate (docs/fair-dispatch.md): the rule that keeps each owner's runs in the run queue under
 * its in-flight limit and holds the rest in the owner's waiting line, in priority then arrival order. Each operation is
 * one script, atomic with the run record's own write where it has one (the claim, the finish), so a slot is never
 * freed without the line hearing of it.
 *
 * Keys: the owner's in-flight set `gate:in-flight:<owner>` and waiting line `gate:line:<owner>` (sorted sets of run
 * ids), the sealed jobs of waiting runs `gate:jobs` (a hash) and the runs being dispatched `gate:dispatching` (a
 * sorted set scored by the time they left their line, so a dispatcher that died is made good by another).
 */

/**
 * A Lua function, `gateTakeNext(inFlight, line, jobs, dispatching, now, out)`: take the head of a waiting line into
 * the in-flight set and the dispatching set, and append its run id and sealed job to `out`. Returns false when the
 * line is empty. Cost: `ZPOPMIN`, then `ZADD` ×2 and `HGET` for a run taken.
 */
const TAKE_NEXT = `
local function gateTakeNext(inFlight, line, jobs, dispatching, now, out)
  local head = redis.call('ZPOPMIN', line)
  if #head == 0 then return false end
  local id = head[1]
  redis.call('ZADD', inFlight, now, id)
  redis.call('ZADD', dispatching, now, id)
  out[#out + 1] = id
  out[#out + 1] = redis.call('HGET', jobs, id) or ''
  return true
end
`;

/**
 * The gate's part of the claim script (prepended to it): decide, before the id is claimed, whether the run goes
 * to the run queue now, waits in its owner's line, or is refused because the line is full. Sets the Lua local `gate`
 * to `queue`, `line` or nil (no gate asked: `limit` is empty), and `busy` to whether every slot of the owner is taken.
 * Cost: `ZCARD` ×2 (the line, then the in-flight set when the line is empty or a job is offered).
 * @param inFlight - the Lua expression of the owner's in-flight key
 * @param line - the Lua expression of the owner's line key
 * @param limit - the Lua expression of the in-flight limit ('' for no gate)
 * @param waitingLimit - the Lua expression of the waiting limit
 * @param offered - the Lua expression of the offered gate job ('' for none: see {@link gateClaimedLua})
 */
export function gateAdmissionLua(
  inFlight: string,
  line: string,
  limit: string,
  waitingLimit: string,
  offered: string,
): string {
  return `
local gate = nil
local busy = false
if ${limit} ~= '' then
  local waiting = redis.call('ZCARD', ${line})
  if waiting == 0 or ${offered} ~= '' then busy = redis.call('ZCARD', ${inFlight}) >= tonumber(${limit}) end
  if waiting == 0 and not busy then
    gate = 'queue'
  elseif waiting >= tonumber(${waitingLimit}) then
    return 'full'
  else
    gate = 'line'
  end
end
`;
}

/**
 * The gate's part of the claim script once the id is claimed: a run going to the queue joins its owner's in-flight
 * set; a run going to its line whose sealed job came with the claim (`offered`) joins the line at once when every slot
 * of its owner is taken (a flood's common case: one script call per start instead of the claim and then the park);
 * the answer tells the caller which way it goes: `claimed`, `lined` (nothing left to do) or `parked` (the caller
 * parks the run, and the park fills the slots that freed meanwhile). Cost: `ZADD` for a run going to the queue,
 * `ZADD` and `HSET` for a run lined.
 * @param keys - the Lua expressions of the in-flight, line and jobs keys
 * @param now - the Lua expression of the time in ms
 * @param runId - the Lua expression of the run id
 * @param offer - the Lua expressions of the offered gate job ('' for none) and its line score
 */
export function gateClaimedLua(
  keys: { inFlight: string; line: string; jobs: string },
  now: string,
  runId: string,
  offer: { job: string; score: string },
): string {
  return `
if gate == 'queue' then redis.call('ZADD', ${keys.inFlight}, ${now}, ${runId}) end
if gate == 'line' then
  if not busy or ${offer.job} == '' then return 'parked' end
  redis.call('ZADD', ${keys.line}, ${offer.score}, ${runId})
  redis.call('HSET', ${keys.jobs}, ${runId}, ${offer.job})
  return 'lined'
end
return 'claimed'
`;
}

/**
 * The gate's part of the finish script: the run leaves its owner's in-flight set and, when it was there, its slot is
 * handed to the head of the owner's line; a run that ends while still waiting in its line (a cancel) leaves the line.
 * Defines `gateTakeNext` and fills the Lua local `handed` (run id, sealed job, …). Cost: `ZREM`, then `ZPOPMIN`
 * (+ `ZADD` ×2, `HGET` when a run is handed the slot), or `ZREM` and `HDEL` for a run that was waiting.
 * @param keys - the Lua expressions of the in-flight, line, jobs and dispatching keys
 * @param now - the Lua expression of the time in ms
 * @param runId - the Lua expression of the run id
 */
export function gateReleaseLua(
  keys: { inFlight: string; line: string; jobs: string; dispatching: string },
  now: string,
  runId: string,
): string {
  return `${TAKE_NEXT}
local handed = {}
if redis.call('ZREM', ${keys.inFlight}, ${runId}) == 1 then
  gateTakeNext(${keys.inFlight}, ${keys.line}, ${keys.jobs}, ${keys.dispatching}, ${now}, handed)
elseif redis.call('ZREM', ${keys.line}, ${runId}) == 1 then
  redis.call('HDEL', ${keys.jobs}, ${runId})
end
`;
}

/**
 * Put a claimed run in its owner's line with its sealed job, then fill the owner's free slots from the head of the
 * line (the run itself, when the slots it waited for freed meanwhile).
 *
 * KEYS[1] in-flight set, KEYS[2] line, KEYS[3] jobs, KEYS[4] dispatching. ARGV[1] run id, ARGV[2] the run's line
 * score, ARGV[3] its sealed job, ARGV[4] the in-flight limit, ARGV[5] now in ms.
 * Returns the runs to dispatch: run id, sealed job, … (often none). Cost: `ZADD`, `HSET`, `ZCARD`, then
 * `gateTakeNext` per free slot.
 */
export const PARK_RUN = `${TAKE_NEXT}
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
local handed = {}
while redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[4]) do
  if not gateTakeNext(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[5], handed) then break end
end
return handed
`;

/**
 * Take a run out of the gate: out of its owner's line (its job dropped) or in-flight set (its slot handed to the
 * head of the line), whichever holds it; a run never enqueued, or cancelled while waiting.
 *
 * KEYS[1] in-flight set, KEYS[2] line, KEYS[3] jobs, KEYS[4] dispatching. ARGV[1] run id, ARGV[2] now in ms.
 * Returns `{left, handed…}`: `left` is 1 when the run was in the line, and the runs to dispatch follow.
 */
export const WITHDRAW_RUN = `${TAKE_NEXT}
local left = redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
local handed = {left}
if redis.call('ZREM', KEYS[1], ARGV[1]) == 1 then
  gateTakeNext(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[2], handed)
end
return handed
`;

/**
 * Mark runs as dispatched: out of the dispatching set, their jobs dropped.
 *
 * KEYS[1] jobs, KEYS[2] dispatching. ARGV: run ids. Returns 1. Cost: `ZREM`, `HDEL`.
 */
export const DISPATCHED = `
redis.call('ZREM', KEYS[2], unpack(ARGV))
redis.call('HDEL', KEYS[1], unpack(ARGV))
return 1
`;

/**
 * Take back the runs whose dispatcher did not report them dispatched in time (it died between taking them and adding
 * their jobs), re-stamped so one reclaimer has them at a time; adding a job again under its id is a no-op.
 *
 * KEYS[1] jobs, KEYS[2] dispatching. ARGV[1] now in ms, ARGV[2] the age in ms past which a run is taken back,
 * ARGV[3] most runs taken. Returns run id, sealed job, …
 */
export const RECLAIM_DISPATCHING = `
local stale = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]), 'LIMIT', 0, tonumber(ARGV[3]))
local out = {}
for _, id in ipairs(stale) do
  redis.call('ZADD', KEYS[2], ARGV[1], id)
  out[#out + 1] = id
  out[#out + 1] = redis.call('HGET', KEYS[1], id) or ''
end
return out
`;
