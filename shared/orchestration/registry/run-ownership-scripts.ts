/**
 * The Lua scripts that make run ownership atomic in Redis (docs/run-ownership.md). Each runs as one command, so a
 * claim cannot race another claim and a read cannot see a record without its owner check.
 *
 * Keys (built by `QueueKeys`): the run record `run:<id>`, the in-flight marker `inflight:<id>` and the owner
 * `owner:<id>`, which lives exactly as long as the record (`RunRegistry.save` writes both with one TTL); the run's
 * event stream `events:<id>` and progress `progress:<id>` (docs/run-events.md). Each write of a record also marks the run
 * in the history outbox (`history:outbox`, scored by `history:sequence`; docs/control-plane.md#the-history-outbox), in
 * the same script, so no record changes without the history hearing of it.
 */
import { gateAdmissionLua, gateClaimedLua } from '../fairness/gate-scripts.js';

/**
 * Claim a run id for an owner and store the run's record, in one round trip.
 *
 * KEYS[1] in-flight marker, KEYS[2] owner, KEYS[3] run record, KEYS[4] event stream, KEYS[5] progress, KEYS[6]
 * history outbox, KEYS[7] history sequence, KEYS[8] the owner's in-flight set, KEYS[9] its waiting line and KEYS[10]
 * the waiting runs' jobs (the dispatch gate, docs/fair-dispatch.md).
 * ARGV[1] workflow id, ARGV[2] owner, ARGV[3] TTL in seconds, ARGV[4] the record's JSON text, ARGV[5] the run id,
 * ARGV[6] the owner's in-flight limit (empty: no gate), ARGV[7] its waiting limit, ARGV[8] now in ms, ARGV[9] the run's
 * gate job offered with the claim (empty: none), ARGV[10] its line score.
 * Returns `full` when the owner's line is at its waiting limit (nothing written), `taken` when another owner holds the
 * id (or a record without an owner stands), `in_flight` when the owner's own run with this id is still in flight,
 * else sets the marker, the owner and the record (replacing the owner's earlier record of this id, and dropping that
 * run's events and progress) and returns `claimed` (the run goes to the run queue, in the owner's in-flight set),
 * `lined` (it waits in the owner's line, with the offered job) or `parked` (it must wait in the owner's line, and the
 * caller parks it).
 */
export const CLAIM_RUN_ID = `${gateAdmissionLua('KEYS[8]', 'KEYS[9]', 'ARGV[6]', 'ARGV[7]', 'ARGV[9]')}
local holder = redis.call('GET', KEYS[2])
if holder then
  if holder ~= ARGV[2] then return 'taken' end
elseif redis.call('EXISTS', KEYS[3]) == 1 then
  return 'taken'
end
if not redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[3], 'NX') then return 'in_flight' end
redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3])
redis.call('SET', KEYS[3], ARGV[4], 'EX', ARGV[3])
redis.call('DEL', KEYS[4], KEYS[5])
redis.call('ZADD', KEYS[6], redis.call('INCR', KEYS[7]), ARGV[5])
${gateClaimedLua({ inFlight: 'KEYS[8]', line: 'KEYS[9]', jobs: 'KEYS[10]' }, 'ARGV[8]', 'ARGV[5]', { job: 'ARGV[9]', score: 'ARGV[10]' })}`;

/**
 * Admit a queued run's job: mark the run RUNNING only when the job is the one accepted under its id, in one round trip
 * (the write of the RUNNING record a worker makes anyway; docs/run-ownership.md#queue-jobs).
 *
 * KEYS[1] owner, KEYS[2] run record, KEYS[3] history outbox, KEYS[4] history sequence. ARGV[1] the job's owner,
 * ARGV[2] the RUNNING record's JSON text (built from the job), ARGV[3] TTL in seconds, ARGV[4] the run id.
 * Returns `not_accepted` when no record is kept for the id, or its owner, job id (`workflow_id`), `storage_scope`,
 * `request_id` or `created_at` is not the job's (a job added or copied outside the API, a submission replaced since);
 * `finished` when the run already finished (a job added again, or retaken after its run ended); else stores the
 * RUNNING record and the owner with one TTL and returns `admitted`.
 */
export const ADMIT_RUN_JOB = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 'not_accepted' end
local text = redis.call('GET', KEYS[2])
if not text then return 'not_accepted' end
local held = cjson.decode(text)
local running = cjson.decode(ARGV[2])
for _, field in ipairs({'workflow_id', 'owner', 'storage_scope', 'request_id', 'created_at'}) do
  if held[field] ~= running[field] then return 'not_accepted' end
end
if held.state ~= 'STARTED' and held.state ~= 'RUNNING' then return 'finished' end
redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3])
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[3])
redis.call('ZADD', KEYS[3], redis.call('INCR', KEYS[4]), ARGV[4])
return 'admitted'
`;

/**
 * Read a record for one owner.
 *
 * KEYS[1] owner, KEYS[2] run record. ARGV[1] the reading owner.
 * Returns the record's JSON text, or nil both when the id is unknown and when another owner holds it.
 */
export const READ_OWNED_RECORD = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return false end
return redis.call('GET', KEYS[2])
`;

/**
 * Store a run's record and its owner with one TTL, and free its id when it finished, in one round trip (a script, not
 * a MULTI transaction: one command to encode and parse instead of four).
 *
 * KEYS[1] run record, KEYS[2] owner, KEYS[3] in-flight marker, KEYS[4] history outbox, KEYS[5] history sequence.
 * ARGV[1] the record's JSON text, ARGV[2] owner, ARGV[3] TTL in seconds, ARGV[4] `1` to free the id (the run
 * finished), else `0`, ARGV[5] the run id. Returns 1.
 */
export const STORE_RUN_RECORD = `
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[3])
redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3])
if ARGV[4] == '1' then redis.call('DEL', KEYS[3]) end
redis.call('ZADD', KEYS[4], redis.call('INCR', KEYS[5]), ARGV[5])
return 1
`;
