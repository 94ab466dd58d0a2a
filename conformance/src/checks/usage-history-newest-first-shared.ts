import { decision, defineCheck } from "../define-check.ts";
import type { Untrusted } from "../typed.ts";
import type { AccountUsageHistoryRow } from "../../../generated/client/types.gen.ts";
import { seen, walk } from "./support/util.ts";

type Row = Untrusted<AccountUsageHistoryRow> | undefined;
const key = (r: Row) => `${r?.id}`;
/** When a row was written, in ms (Unix seconds, or an ISO string from a deployment that sends one; NaN without). */
const t = (r: Row) => (typeof r?.created_at === "number" ? r.created_at * 1000 : Date.parse(String(r?.created_at)));

/** Usage history is newest first (created_at, then id) and the same feed for every seat of the account. */
export default defineCheck({
  id: "usage-history-newest-first-shared",
  phase: "lists",
  rule: "GET /v1/me/usage_history is sorted newest first (created_at, then id, both descending) across a cursor walk, and every seat of the account sees the same rows",
  section: "Endpoints › Account and prices (usage history: account-wide, every seat sees the same feed)",
  severity: "major",
  rules: {
    seed: "cursor paginated, account-wide (every seat sees the same feed)",
    decisions: [decision("D-USAGE-ORDER", { title: /newest first|order/ })],
  },
  decisions: ["D-USAGE-ORDER"],
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/me/usage_history"],
  async run(ctx) {
    const mine = await walk<AccountUsageHistoryRow>(ctx, "/v1/me/usage_history", { limit: 5, maxPages: 6 });
    if (mine.error)
      ctx.fail(
        {
          title: `a page answered ${mine.error.status}`,
          received: seen(mine.error),
          expected: "200 with a page",
        },
        mine.error,
      );
    const rows = mine.items;
    if (rows.length < 2) ctx.notExercised(`order: the account has ${rows.length} usage row(s)`);
    else {
      const bad = rows.findIndex(
        (r, i) =>
          i > 0 &&
          (Number.isNaN(t(r)) ||
            t(r) > t(rows[i - 1]) ||
            (t(r) === t(rows[i - 1]) && Number(r.id) > Number(rows[i - 1].id))),
      );
      ctx.expect(
        bad < 0,
        {
          title: "usage history is not newest first",
          received: rows.slice(Math.max(0, bad - 1), bad + 1).map((r) => ({ id: r?.id, created_at: r?.created_at })),
          expected: "created_at then id non-increasing, created_at present",
        },
        mine.pages.at(-1),
      );
    }
    if (!ctx.hasKey("second")) return ctx.notExercised("sharing: no --second-seat-key given");
    const theirs = await walk<AccountUsageHistoryRow>(ctx, "/v1/me/usage_history", {
      limit: 5,
      maxPages: 6,
      key: "second",
    });
    const a = rows.map(key);
    const b = theirs.items.map(key);
    ctx.expect(
      !theirs.error && a.join() === b.join(),
      {
        title: "another seat sees a different usage history",
        received: theirs.error ? seen(theirs.error) : b,
        expected: a,
      },
      theirs.pages.at(-1),
    );
  },
});
