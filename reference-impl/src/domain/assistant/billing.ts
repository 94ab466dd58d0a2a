// The assistant's inference charge (D-ASK-CHARGE). The seed wants a
// token-based charge settled after the reply, no flat fee, and only the four
// current categories on new usage rows (`ai_assistant` appears on old rows
// only). So a turn is charged in the `post_processing` category: every
// started block of 1,000 tokens (question, earlier turns and reply, counted
// by wink-nlp's tokenizer) costs what processing one post costs (0.5 units at
// the plan's rate). "A spent balance" is one that cannot pay a single block:
// such an ask is refused with 402 `insufficient_credits_ask` before anything
// is created; otherwise the turn runs and its charge, taken after the reply,
// never overdraws (at most the remaining balance is taken).
import type { Ledger } from "../../platform/billing/ledger.ts";
import type { Money } from "../../platform/billing/money.ts";

export const ASK_CATEGORY = "post_processing" as const;
export const TOKENS_PER_BLOCK = 1000;

export function blocksFor(tokens: number): number {
  return Math.max(1, Math.ceil(tokens / TOKENS_PER_BLOCK));
}

/** Price of a turn of `tokens` tokens for the account. */
export function turnPrice(ledger: Ledger, accountId: string, tokens: number): Money {
  return ledger.quote(accountId, ASK_CATEGORY, blocksFor(tokens));
}

/** 402 `insufficient_credits_ask` unless the balance pays at least one block. */
export function requireAskBalance(ledger: Ledger, accountId: string): void {
  ledger.requireBalance(accountId, turnPrice(ledger, accountId, 0), "insufficient_credits_ask");
}
