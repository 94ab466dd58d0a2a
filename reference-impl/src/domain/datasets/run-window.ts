// The collection window of a prompt run: the last 365 days by default, or
// the request's `date_range` where the plan allows custom date filters
// (D-PLAN-DATE-FILTER) and within the plan's longest range.
import type { Account } from "../../platform/accounts.ts";
import { PLANS } from "../../platform/billing/plans.ts";
import { ApiError, ValidationFailed } from "../../platform/errors.ts";
import { hasFeature } from "../../platform/plan-features.ts";
import type { DatasetRunBody } from "./rows.ts";

const DAY = 86_400_000;

function parseDay(day: string, loc: string[]): number {
  const ms = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day) {
    throw new ValidationFailed([{ loc, msg: "Not a valid calendar date.", type: "value_error" }]);
  }
  return ms;
}

/** The collection window of a run, or null for url searches. */
export function windowOf(
  body: DatasetRunBody,
  account: Account,
  nowMs: number,
): { fromMs: number; toMs: number } | null {
  if (body.search_query.type === "url") return null;
  if (!body.date_range) return { fromMs: nowMs - 365 * DAY, toMs: nowMs };
  // A plan without `custom_date_filter` keeps the default window (D-PLAN-DATE-FILTER).
  if (!hasFeature(account, "custom_date_filter")) {
    throw new ApiError(
      "date_filter_unavailable",
      `The ${PLANS[account.plan].display_name} plan does not include custom date filters.`,
    );
  }
  const fromMs = parseDay(body.date_range.from, ["body", "date_range", "from"]);
  const toMs = parseDay(body.date_range.to, ["body", "date_range", "to"]);
  if (fromMs >= toMs) {
    throw new ValidationFailed([
      { loc: ["body", "date_range"], msg: "`from` must precede `to`.", type: "value_error" },
    ]);
  }
  const maxDays = PLANS[account.plan].max_date_range_days;
  if ((toMs - fromMs) / DAY > maxDays) {
    throw new ApiError("date_filter_unavailable", `The plan allows date ranges of at most ${maxDays} days.`);
  }
  return { fromMs, toMs: toMs + DAY - 1000 };
}
