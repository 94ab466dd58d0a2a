// Plan feature flags enforced by the platform: `api_access` gates the API
// (401, D-PLAN-GATE) and `custom_date_filter` gates explicit run date ranges
// (422 date_filter_unavailable, D-PLAN-DATE-FILTER). The demo accounts all
// have both, so these tests add a trial account of their own.
import { afterEach, describe, expect, it } from "vitest";
import { sha256Hex } from "../src/platform/accounts.ts";
import { money } from "../src/platform/billing/money.ts";
import { PLANS } from "../src/platform/billing/plans.ts";
import { createDataset, makeApp, promptRun } from "./helpers.ts";

const TRIAL_KEY = "sl_test_trial_owner_0000000000000000";

function withTrialAccount() {
  const t = makeApp();
  t.directory.addAccount({
    id: "acc_trial",
    name: "Trial Co",
    team_name: "Trial",
    email: "t@trial.example",
    plan: "trial",
    created_at: 1767225600,
    seats: [{ user_id: "usr_trial", email: "t@trial.example", name: "T", created_at: 1767225600 }],
    invitations: [],
  });
  t.ledger.open("acc_trial", "trial", money(1));
  t.directory.addKey({ digest: sha256Hex(TRIAL_KEY), account_id: "acc_trial", user_id: "usr_trial" });
  return t;
}

const saved = PLANS.trial.features.api_access;
afterEach(() => {
  PLANS.trial.features.api_access = saved;
});

describe("plan features", () => {
  it("a trial plan without custom_date_filter gets 422 date_filter_unavailable for an explicit range, and runs without one", async () => {
    const t = withTrialAccount();
    const ds = await createDataset(t, "trial", TRIAL_KEY);
    const ranged = await t.call("POST", `/v1/datasets/${ds}/runs`, {
      key: TRIAL_KEY,
      body: promptRun("oat milk", 20, { date_range: { from: "2026-01-01", to: "2026-02-01" } }),
    });
    expect(ranged.status).toBe(422);
    expect(ranged.json.error_code).toBe("date_filter_unavailable");
    expect(t.ledger.held("acc_trial").isZero()).toBe(true);
    const plain = await t.call("POST", `/v1/datasets/${ds}/runs`, { key: TRIAL_KEY, body: promptRun("oat milk", 20) });
    expect(plain.status).toBe(202);
  });

  it("a plan without api_access answers 401 unauthorized, without RateLimit headers", async () => {
    const t = withTrialAccount();
    PLANS.trial.features.api_access = false;
    const res = await t.call("GET", "/v1/datasets", { key: TRIAL_KEY });
    expect(res.status).toBe(401);
    expect(res.json.error_code).toBe("unauthorized");
    expect(res.headers.get("ratelimit-limit")).toBeNull();
  });
});
