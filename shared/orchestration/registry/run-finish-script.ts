/**
 * The Lua script that records a run's end at most once (docs/run-failures.md#a-run-finishes-once). Two parties can
 * reach the end of one run: the attempt that ran it, and the worker that fails its job after a second stall (the
 * attempt's worker lost its lock while the attempt went on). The check of the kept record and the write are one
 * command, so whichever writes first is the run's end and the other's write is refused — never a FAILED report over a
 * COMPLETED run, nor a second set of callbacks.
 *
 * KEYS[1] run record, KEYS[2] owner, KEYS[3] in-flight marker, KEYS[4] history outbox, KEYS[5] history sequence,
 * KEYS[6] the owner's in-flight set, KEYS[7] its waiting line, KEYS[8] the gate's jobs, KEYS[9] its dispatching set
 * (docs/fair-dispatch.md), KEYS[10] the run's event stream, KEYS[11] its progress (docs/run-events.md), KEYS[12] its
 * step checkpoints (docs/checkpoints.md).
 * ARGV[1] the finished record's JSON text, ARGV[2] its owner, ARGV[3] TTL in seconds, ARGV[4] `1` to free the id, else
 * `0`, ARGV[5] and ARGV[6] the run's `created_at` and `request_id` (which submission of the id it is), ARGV[7] the run
 * id, ARGV[8] now in ms, ARGV[9] the most events kept per run, ARGV[10] the progress's JSON text or empty, ARGV[11]
 * `1` to drop the checkpoints (a completed run), else `0`, ARGV[12…] the events to append with the end (none, or the
 * events not yet appended and the terminal one), oldest first.
 * Returns `{already_finished}`, writing nothing, when the record kept is finished (any state but STARTED and RUNNING)
 * or is another submission's (a later run of the id); else stores the record and its owner with one TTL, frees the id
 * and drops the checkpoints when asked, appends the events, takes the run out of its owner's in-flight set (handing
 * its slot to the head of the owner's line) and returns `{recorded, run id, sealed job}` with the run handed the slot,
 * if any. A record that is gone (expired) is written.
 */
import { appendRunEventsLua } from '../events/redis-run-event-log.js';
import { gateReleaseLua } from '../fairness/gate-scripts.js';

export const FINISH_RUN_ONCE = `
local text = redis.call('GET', KEYS[1])
if text then
  local held = cjson.decode(text)
  if held.created_at ~= ARGV[5] or held.request_id ~= ARGV[6] then return {'already_finished'} end
  if held.state ~= 'STARTED' and held.state ~= 'RUNNING' then return {'already_finished'} end
end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[3])
redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3])
if ARGV[4] == '1' then redis.call('DEL', KEYS[3]) end
if ARGV[11] == '1' then redis.call('DEL', KEYS[12]) end
redis.call('ZADD', KEYS[4], redis.call('INCR', KEYS[5]), ARGV[7])
${appendRunEventsLua({ stream: 'KEYS[10]', progress: 'KEYS[11]', maxLen: 'ARGV[9]', ttl: 'ARGV[3]', progressText: 'ARGV[10]', firstEvent: 12 })}
${gateReleaseLua({ inFlight: 'KEYS[6]', line: 'KEYS[7]', jobs: 'KEYS[8]', dispatching: 'KEYS[9]' }, 'ARGV[8]', 'ARGV[7]')}
table.insert(handed, 1, 'recorded')
return handed
`;
