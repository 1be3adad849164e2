/**
 * Run priorities (docs/fair-dispatch.md#priorities): the range a run may ask for, and how one maps to BullMQ's.
 */

/**
 * The priorities a run may ask for: 0 to 10, higher first, 5 when it asks none. Every run job carries a BullMQ
 * priority (1 for 10, 11 for 0), so all of them wait in one ordered set.
 */
export const RUN_PRIORITY = { min: 0, max: 10, default: 5 } as const;

/**
 * The BullMQ priority of a run's priority (BullMQ takes lower numbers first, from 1).
 * @param priority - the run's priority, {@link RUN_PRIORITY}
 */
export function bullPriority(priority: number): number {
  return RUN_PRIORITY.max + 1 - priority;
}
