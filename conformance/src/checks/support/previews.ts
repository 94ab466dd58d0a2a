// Preview scenarios shared by the preview checks: one prompt preview and one
// URL preview from the contract's own request examples, with the balance read
// before and after each.
import type { Decimal } from "decimal.js";
import type { CheckContext } from "../../types.ts";
import type { Exchange } from "../../http.ts";
import { data } from "./util.ts";
import { usageRows } from "./billing.ts";
import { balanceOf, priceOf } from "./groups.ts";

export const PREVIEWS = "/v1/research_previews";

export interface ChargedPreview {
  body: any;
  create: Exchange;
  price: Decimal;
  before: Decimal;
  after: Decimal;
  rowsBefore: any[];
  rowsAfter: any[];
}

/** The contract's request example whose `type` is `kind` (the refusal example excluded). */
export function previewExample(ctx: CheckContext, kind: "prompt" | "url"): any {
  const op = ctx.contract.op(`POST ${PREVIEWS}`);
  const body = (op?.bodyExamples ?? []).find((b: any) => b?.type === kind);
  if (!body) ctx.skip(`the contract has no ${kind} preview example`);
  return structuredClone(body);
}

export function chargedPreview(ctx: CheckContext, kind: "prompt" | "url"): Promise<ChargedPreview> {
  return ctx.shared(`preview-${kind}`, async () => {
    const body = previewExample(ctx, kind);
    const price = await priceOf(ctx, "preview_generation");
    const units = kind === "prompt" ? body.sources.length : body.source_urls.length;
    ctx.charge(price.mul(units).toFixed(), `${kind} preview (${units} units at most)`);
    const { rows: rowsBefore } = await usageRows(ctx);
    const { balance: before } = await balanceOf(ctx);
    const create = await ctx.req({ method: "POST", path: PREVIEWS, body });
    const { balance: after } = await balanceOf(ctx);
    const { rows: rowsAfter } = await usageRows(ctx);
    // stored with another 2xx: a finding of the create status (D-CREATE-201), and the check goes on with the preview
    if (
      create.status >= 200 &&
      create.status < 300 &&
      create.status !== 201 &&
      typeof data(create)?.preview_id === "string"
    )
      ctx.fail(
        { title: `a ${kind} preview answered ${create.status}, not 201`, received: create.status, expected: 201 },
        create,
      );
    else if (create.status !== 201 || typeof data(create)?.preview_id !== "string") {
      ctx.fail(
        {
          title: `a ${kind} preview from the contract's example answered ${create.status}`,
          received: create.json,
          expected: { status: 201, data: { preview_id: "…", type: kind } },
        },
        create,
      );
      ctx.skip(`the ${kind} preview could not be created`);
    }
    return { body, create, price, before, after, rowsBefore, rowsAfter };
  });
}
