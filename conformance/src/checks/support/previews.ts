// Preview scenarios shared by the preview checks: one prompt preview and one
// URL preview from the contract's own request examples, with the balance read
// before and after each.
import type { Decimal } from "decimal.js";
import type { CheckContext } from "../../types.ts";
import type { Exchange } from "../../http.ts";
import { dataOf, isObject, type Untrusted } from "../../typed.ts";
import type {
  PreviewsPromptPreviewBody,
  PreviewsResearchPreview,
  PreviewsUrlPreviewBody,
} from "../../../../generated/client/types.gen.ts";
import { usageRows } from "./billing.ts";
import { balanceOf, priceOf } from "./groups.ts";
import { setupNotAccepted } from "./util.ts";

export const PREVIEWS = "/v1/research_previews";

/** A preview request as the contract's example gives it (a copy: a check may change it). */
export type PromptBody = Untrusted<PreviewsPromptPreviewBody>;
export type UrlBody = Untrusted<PreviewsUrlPreviewBody>;
type UsageRows = Awaited<ReturnType<typeof usageRows>>["rows"];

export interface ChargedPreview<B> {
  body: B;
  create: Exchange;
  price: Decimal;
  before: Decimal;
  after: Decimal;
  rowsBefore: UsageRows;
  rowsAfter: UsageRows;
}

/** The contract's request example whose `type` is `kind` (the refusal example excluded). */
export function previewExample(ctx: CheckContext, kind: "prompt"): PromptBody;
export function previewExample(ctx: CheckContext, kind: "url"): UrlBody;
export function previewExample(ctx: CheckContext, kind: "prompt" | "url"): PromptBody | UrlBody {
  const op = ctx.contract.op(`POST ${PREVIEWS}`);
  const body = (op?.bodyExamples ?? []).find((b) => isObject(b) && b.type === kind);
  if (!body) ctx.skip(`the contract has no ${kind} preview example`);
  return structuredClone(body) as PromptBody | UrlBody;
}

/** How many units a preview reserves at most: its sources (prompt) or its URLs (url). */
function unitsOf(body: PromptBody | UrlBody): number {
  return body.type === "url" ? body.source_urls!.length : (body as PromptBody).sources!.length;
}

export function chargedPreview(ctx: CheckContext, kind: "prompt"): Promise<ChargedPreview<PromptBody>>;
export function chargedPreview(ctx: CheckContext, kind: "url"): Promise<ChargedPreview<UrlBody>>;
export function chargedPreview(
  ctx: CheckContext,
  kind: "prompt" | "url",
): Promise<ChargedPreview<PromptBody | UrlBody>> {
  return ctx.shared(`preview-${kind}`, async () => {
    const body = kind === "prompt" ? previewExample(ctx, kind) : previewExample(ctx, kind);
    const price = await priceOf(ctx, "preview_generation");
    const units = unitsOf(body);
    ctx.charge(price.mul(units).toFixed(), `${kind} preview (${units} units at most)`);
    const { rows: rowsBefore } = await usageRows(ctx);
    const { balance: before } = await balanceOf(ctx);
    const create = await ctx.req({ method: "POST", path: PREVIEWS, body });
    const { balance: after } = await balanceOf(ctx);
    const { rows: rowsAfter } = await usageRows(ctx);
    const stored = typeof dataOf<PreviewsResearchPreview>(create)?.preview_id === "string";
    // stored with another 2xx: the check goes on with the preview (the status is documented-status-only's)
    if (create.status < 200 || create.status >= 300 || !stored)
      setupNotAccepted(ctx, `a ${kind} preview from the contract's example`, create);
    return { body, create, price, before, after, rowsBefore, rowsAfter };
  });
}
