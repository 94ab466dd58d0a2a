import { defineCheck } from "../define-check.ts";
import { decided, seed } from "../grounding/assertions.ts";
import { words } from "../grounding/facts.ts";
import type { Untrusted } from "../typed.ts";
import type { AccountUsageHistoryRow } from "../../../generated/client/types.gen.ts";
import type { KeyRole } from "../http.ts";
import type { CheckContext } from "../types.ts";
import { seen, walk, type Walk } from "./support/util.ts";

type Row = Untrusted<AccountUsageHistoryRow> | undefined;
const key = (r: Row) => `${r?.id}`;
/** When a row was written, in ms (Unix seconds, or an ISO string from a deployment that sends one; NaN without). */
const t = (r: Row) => (typeof r?.created_at === "number" ? r.created_at * 1000 : Date.parse(String(r?.created_at)));
const HISTORY = "/v1/me/usage_history";
const feed = (ctx: CheckContext, k: KeyRole) =>
  walk<AccountUsageHistoryRow>(ctx, HISTORY, { limit: 5, maxPages: 6, key: k });
const ids = (w: Walk<AccountUsageHistoryRow>) => w.items.map(key).join();

/**
 * Usage history is the same feed for every seat of the account (the seed),
 * newest first by created_at then id (D-USAGE-ORDER: the seed shows no order).
 * The two seats' walks are compared between two walks of the main seat, so a
 * charge settling meanwhile is told from a feed that differs.
 */
export default defineCheck({
  id: "usage-history-newest-first-shared",
  phase: "lists",
  rule: "GET /v1/me/usage_history is cursor paginated and every seat of the account sees the same rows; it is sorted newest first (created_at, then id, both descending; D-USAGE-ORDER)",
  section: "Endpoints › Account and prices (usage history: account-wide, every seat sees the same feed)",
  severity: "major",
  asserts: {
    paginated: seed("usage-history.account-wide", words("cursor paginated")),
    shared: seed("usage-history.account-wide", words("every seat sees the same feed")),
    newestFirst: decided("D-USAGE-ORDER"),
  },
  profiles: ["readonly", "standard", "full"],
  requires: ["GET /v1/me/usage_history"],
  async run(ctx) {
    const mine = await feed(ctx, "main");
    if (mine.error)
      ctx.fail(
        {
          judges: "paginated",
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
          judges: "newestFirst",
          title: "usage history is not newest first",
          received: rows.slice(Math.max(0, bad - 1), bad + 1).map((r) => ({ id: r?.id, created_at: r?.created_at })),
          expected: "created_at then id non-increasing, created_at present",
        },
        mine.pages.at(-1),
      );
    }
    if (!ctx.hasKey("second")) return ctx.notExercised("sharing: no --second-seat-key given");
    if (mine.error) return;
    // main, second, main again: the feed held still around the second seat's walk when the main seat's agree
    let before = mine;
    for (let i = 0; i < 3; i++) {
      const theirs = await feed(ctx, "second");
      const again = await feed(ctx, "main");
      if (ids(again) !== ids(before)) {
        before = again;
        continue;
      }
      if (again.items.length === 0 && !theirs.error && theirs.items.length === 0)
        return ctx.notExercised("sharing: the account has no usage row for the seats to see");
      ctx.expect(
        !theirs.error && ids(theirs) === ids(again),
        {
          judges: "shared",
          title: "another seat sees a different usage history",
          received: theirs.error ? seen(theirs.error) : theirs.items.map(key),
          expected: again.items.map(key),
        },
        theirs.error ?? theirs.pages.at(-1),
      );
      return;
    }
    ctx.notExercised("sharing: the account's usage history kept changing between the seats' reads");
  },
});
