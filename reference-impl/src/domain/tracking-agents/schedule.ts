// When a tracking agent's next scheduled cycle starts. Schedules are UTC
// (D-TA-SCHEDULE-TZ): `daily {time}` fires every day at HH:MM, `weekly {day,
// time}` once a week. A server started with a cycle override (the
// AGENT_CYCLE_SECONDS setting, D-REF-AGENT-CYCLE) fires every N seconds of
// clock time instead, so a demo sees alerts within minutes.
import type { TrackingAgentsSchedule } from "../../../../generated/client/types.gen.ts";

export type Schedule = TrackingAgentsSchedule;

const MINUTE = 60_000;
const DAY = 86_400_000;
const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;

function minutesOfDay(time: string): number {
  const [h, m] = time.split(":").map(Number);
  return h! * 60 + m!;
}

/**
 * The first slot of `schedule` strictly after `afterMs` (so a cycle that
 * fires exactly on its slot schedules the following one), in epoch ms.
 */
export function nextSlot(schedule: Schedule, afterMs: number): number {
  const dayStart = Math.floor(afterMs / DAY) * DAY;
  const at = minutesOfDay(schedule.time) * MINUTE;
  if (schedule.frequency === "daily") {
    const today = dayStart + at;
    return today > afterMs ? today : today + DAY;
  }
  const weekday = new Date(dayStart).getUTCDay();
  const target = WEEKDAYS.indexOf(schedule.day);
  let slot = dayStart + ((target - weekday + 7) % 7) * DAY + at;
  if (slot <= afterMs) slot += 7 * DAY;
  return slot;
}

/** Next cycle start: the schedule's next slot, or `afterMs + cycleSeconds` under the demo override. */
export function nextRunMs(schedule: Schedule, afterMs: number, cycleSeconds: number | undefined): number {
  if (cycleSeconds && cycleSeconds > 0) return afterMs + cycleSeconds * 1000;
  return nextSlot(schedule, afterMs);
}
