// Plan feature flags (`plan.features` of /v1/me) enforced in one place.
import type { Account } from "./accounts.ts";
import { PLANS, type Plan } from "./billing/plans.ts";
import { ApiError, type ErrorCode } from "./errors.ts";

export type Feature = keyof Plan["features"];

export function hasFeature(account: Account, feature: Feature): boolean {
  return PLANS[account.plan].features[feature];
}

/** Throw `code` (status from the catalogue) unless the account's plan has `feature`. */
export function requireFeature(account: Account, feature: Feature, code: ErrorCode, detail?: string): void {
  if (!hasFeature(account, feature)) {
    throw new ApiError(
      code,
      detail ?? `The ${PLANS[account.plan].display_name} plan does not include ${feature.replace(/_/g, " ")}.`,
    );
  }
}
