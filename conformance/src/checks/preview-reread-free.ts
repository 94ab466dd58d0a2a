import type { ActiveCheck } from "../types.ts";
import { data, seen } from "./support/util.ts";
import { canonical } from "./mcp-rest-agreement.ts";
import { balanceOf } from "./support/groups.ts";
import { chargedPreview, PREVIEWS } from "./support/previews.ts";

/** GET of a stored preview returns the stored sample (no re-scrape), is free, and is scoped to the account. */
const check: ActiveCheck = {
  kind: "active",
  id: "preview-reread-free",
  rule: "GET /v1/research_previews/{preview_id} returns the stored result unchanged and charges nothing; another account gets 404",
  section:
    "Endpoints › Research previews (GET: stored sample, free, no re-scrape, scoped to the account); decision D-PREVIEW-404",
  severity: "major",
  decisions: ["D-PREVIEW-404"],
  profiles: ["standard", "full"],
  mock: false,
  requires: ["POST /v1/research_previews", "GET /v1/research_previews/{preview_id}"],
  async run(ctx) {
    const p = await chargedPreview(ctx, "prompt");
    const id = data(p.create).preview_id;
    const { balance: before } = await balanceOf(ctx);
    const a = await ctx.req({ method: "GET", path: `${PREVIEWS}/${encodeURIComponent(id)}` });
    const b = await ctx.req({ method: "GET", path: `${PREVIEWS}/${encodeURIComponent(id)}` });
    const { balance: after, ex: me } = await balanceOf(ctx);
    ctx.expect(
      a.status === 200 && canonical(data(a)) === canonical(data(p.create)),
      {
        title: "preview-reread-free: the re-read differs from the created preview",
        received: seen(a),
        expected: { status: 200, data: data(p.create) },
      },
      a,
    );
    ctx.expect(
      canonical(data(b)) === canonical(data(a)),
      { title: "preview-reread-free: two re-reads differ (re-scraped?)", received: data(b), expected: data(a) },
      b,
    );
    ctx.expect(
      after.equals(before),
      {
        title: "preview-reread-free: re-reading a preview changed the balance",
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
          title: `preview-reread-free: another account reading the preview answered ${f.status}`,
          received: seen(f),
          expected: { status: 404 },
        },
        f,
      );
    }
  },
};
export default check;
