import { decision, defineCheck } from "../define-check.ts";
import type { Exchange } from "../http.ts";
import { bodyOf, dataOf } from "../typed.ts";
import type { PreviewsResearchPreview } from "../../../generated/client/types.gen.ts";
import { seen } from "./support/util.ts";
import { canonical } from "./support/mcp.ts";
import { balanceOf } from "./support/groups.ts";
import { chargedPreview, PREVIEWS } from "./support/previews.ts";

/** `data` exactly as sent, whatever it is: two answers are compared whole. */
const sent = (ex: Exchange): unknown => bodyOf<{ data: unknown }>(ex)?.data;

/** GET of a stored preview returns the stored sample (no re-scrape), is free, and is scoped to the account. */
export default defineCheck({
  id: "preview-reread-free",
  phase: "groups",
  rule: "GET /v1/research_previews/{preview_id} returns the stored result unchanged and charges nothing; another account gets 404",
  section: "Endpoints › Research previews (GET: stored sample, free, no re-scrape, scoped to the account)",
  severity: "major",
  rules: {
    seed: "the stored sample; free; no re-scrape; scoped to the account",
    decisions: [decision("D-PREVIEW-404", { title: /unknown preview|unknown id|code/, status: (s) => s === 404 })],
  },
  decisions: ["D-PREVIEW-404"],
  requires: ["POST /v1/research_previews", "GET /v1/research_previews/{preview_id}"],
  async run(ctx) {
    const p = await chargedPreview(ctx, "prompt");
    // chargedPreview went on only with a string preview_id
    const id = String(dataOf<PreviewsResearchPreview>(p.create)?.preview_id);
    const { balance: before } = await balanceOf(ctx);
    const a = await ctx.req({ method: "GET", path: `${PREVIEWS}/${encodeURIComponent(id)}` });
    const b = await ctx.req({ method: "GET", path: `${PREVIEWS}/${encodeURIComponent(id)}` });
    const { balance: after, ex: me } = await balanceOf(ctx);
    ctx.expect(
      a.status === 200 && canonical(sent(a)) === canonical(sent(p.create)),
      {
        title: "the re-read differs from the created preview",
        received: seen(a),
        expected: { status: 200, data: sent(p.create) },
      },
      a,
    );
    ctx.expect(
      canonical(sent(b)) === canonical(sent(a)),
      { title: "two re-reads differ (re-scraped?)", received: sent(b), expected: sent(a) },
      b,
    );
    ctx.expect(
      after.equals(before),
      {
        title: "re-reading a preview changed the balance",
        received: after.toFixed(),
        expected: before.toFixed(),
      },
      me,
    );
    if (ctx.hasKey("foreign")) {
      const f = await ctx.req({ method: "GET", path: `${PREVIEWS}/${encodeURIComponent(id)}`, key: "foreign" });
      ctx.expect(
        f.status === 404,
        {
          title: `another account reading the preview answered ${f.status}`,
          received: seen(f),
          expected: { status: 404 },
        },
        f,
      );
    }
  },
});
