// One assistant turn on the clock (D-MESSAGE-POLL): after one step delay the
// engine writes the whole reply, which is rewritten for citations; the reply
// is then revealed in REVEAL_PIECES pieces, one per step delay, so a poller
// sees `working` with growing partial text; the last piece completes the
// turn, charges its tokens (D-ASK-CHARGE) and names the chat after a few turns.
import type { CommonReference } from "../../../../generated/client/types.gen.ts";
import type { Caller } from "../../platform/env.ts";
import { injectedRunFailure } from "../../platform/faults.ts";
import { rewriteCitations } from "../citations/rewriter.ts";
import { mentionKey, type MentionRecord } from "../mentions/record.ts";
import type { Ledger } from "../../platform/billing/ledger.ts";
import type { Clock } from "../../platform/clock.ts";
import type { Pipeline } from "../../platform/pipeline.ts";
import type { DatasetService } from "../datasets/service.ts";
import { ASK_CATEGORY, turnPrice } from "./billing.ts";
import type { AssistantEngine, EntityUse } from "./engine.ts";
import { contentWords, countTokens } from "./language.ts";
import type { ChatRow, MessageRow } from "./rows.ts";
import { toolsFor, type ToolNeeds } from "./tools.ts";

export const REVEAL_PIECES = 4;
/** Entity references per turn (the seed's "usually at most 3"). */
export const MAX_ENTITIES = 3;
/** The chat gets a name when its second reply completes. */
export const NAME_AFTER_TURNS = 2;

export interface TurnRequest {
  caller: Caller;
  chat: ChatRow;
  question: MessageRow;
  reply: MessageRow;
  history: MessageRow[];
  datasetIds?: string[] | undefined;
  postRefs?: { source: string; id: string }[] | undefined;
}

/** Split text into `n` pieces of about equal length, cutting after whitespace where possible. */
export function pieces(text: string, n: number): string[] {
  const out: string[] = [];
  let from = 0;
  for (let i = 1; i <= n; i++) {
    let to = i === n ? text.length : Math.round((text.length * i) / n);
    if (i < n) {
      const space = text.indexOf(" ", to);
      to = space === -1 ? text.length : space + 1;
    }
    to = Math.max(to, from);
    out.push(text.slice(from, to));
    from = to;
  }
  return out;
}

function uniqueEntities(list: EntityUse[]): CommonReference[] {
  const seen = new Set<string>();
  const out: CommonReference[] = [];
  for (const e of list) {
    const key = `${e.type}:${e.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ type: e.type, id: e.id } as CommonReference);
    if (out.length === MAX_ENTITIES) break;
  }
  return out;
}

/** Chat name from the first question's content words. */
export function chatName(firstQuestion: string): string {
  const words = contentWords(firstQuestion).slice(0, 6);
  const name = words.length ? words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join(" ") : firstQuestion.trim();
  return name.length > 80 ? `${name.slice(0, 79)}…` : name || "Chat";
}

/** What a turn needs from the composition root (compose.ts). */
export type TurnNeeds = ToolNeeds & {
  readonly clock: Clock;
  readonly ledger: Ledger;
  readonly pipeline: Pipeline;
  readonly datasets: Pick<DatasetService, "live" | "lookup">;
};

export class TurnRunner {
  constructor(
    private readonly services: TurnNeeds,
    private readonly engine: () => AssistantEngine,
    private readonly onSettled: (reply: MessageRow) => void,
    private readonly chatTurns: (chat: ChatRow) => MessageRow[],
  ) {}

  /** Schedule the turn; returns at once. */
  start(req: TurnRequest): void {
    const delay = this.services.pipeline.options.stepDelayMs;
    // Prefer: fault=run-failed on the ask: this turn fails like an engine fault.
    const injectedFailure = injectedRunFailure();
    // Bring the account's text index up to date a slice at a time first, so
    // the first turn over a large pool does not stall other tenants.
    this.services.clock.schedule(delay, async () => {
      await this.services.mentions(req.caller.account.id).catchUpTextIndex();
      this.write(req, injectedFailure);
    });
  }

  /** Write the whole reply now (the bench calls this directly to time a turn). */
  write(req: TurnRequest, injectedFailure?: string): void {
    const { reply } = req;
    let text: string;
    let references: CommonReference[];
    try {
      if (injectedFailure !== undefined) throw new Error(injectedFailure);
      ({ text, references } = this.compose(req));
    } catch (error) {
      reply.status = "failed";
      reply.stop_reason = "error";
      reply.text = "The assistant could not finish this turn. Nothing was charged; please ask again.";
      reply.references = [];
      // A fault of the engine fails this turn only; it must not escape into the clock's timer.
      reply.failure = error instanceof Error ? error.message : String(error);
      this.onSettled(reply);
      return;
    }
    reply.final = text;
    reply.references = references;
    const parts = pieces(text, REVEAL_PIECES);
    const reveal = (i: number) => {
      reply.text = parts.slice(0, i + 1).join("");
      if (i + 1 < parts.length) {
        this.services.clock.schedule(this.services.pipeline.options.stepDelayMs, () => reveal(i + 1));
        return;
      }
      this.complete(req);
    };
    reveal(0);
  }

  private compose(req: TurnRequest): { text: string; references: CommonReference[] } {
    const { services } = this;
    const accountId = req.caller.account.id;
    const pool = services.mentions(accountId);
    const live = services.datasets.live(accountId);
    let datasets = live;
    const unknownDatasetIds: string[] = [];
    if (req.datasetIds) {
      const ids = [...new Set(req.datasetIds)];
      datasets = [];
      for (const id of ids) {
        const d = services.datasets.lookup(accountId, id);
        if (d) datasets.push(d);
        else unknownDatasetIds.push(id);
      }
    }
    const attached: MentionRecord[] = [];
    const missingRefs: { source: string; id: string }[] = [];
    for (const ref of req.postRefs ?? []) {
      const r = pool.get(mentionKey(ref.source, ref.id));
      if (r) attached.push(r);
      else missingRefs.push(ref);
    }
    const draft = this.engine().reply(
      {
        question: req.question.text,
        history: req.history.map((m) => ({ role: m.role, text: m.final ?? m.text })),
        datasets: datasets.map((d) => ({ id: d.id, name: d.name })),
        unknownDatasetIds,
        attached,
        missingRefs,
      },
      toolsFor(
        services,
        req.caller,
        datasets.map((d) => d.id),
      ),
    );
    // Every cited post must resolve through POST /v1/mentions post_refs: only posts of the account keep their link.
    const { text, posts } = rewriteCitations(draft.markdown, {
      accept: (source, id) => pool.get(mentionKey(source, id)) !== undefined,
    });
    req.reply.tokens =
      countTokens(req.question.text) +
      req.history.reduce((n, m) => n + countTokens(m.final ?? m.text), 0) +
      countTokens(draft.markdown);
    return { text, references: [...posts, ...uniqueEntities(draft.entities)] };
  }

  private complete(req: TurnRequest): void {
    const { reply, chat, caller } = req;
    const { ledger } = this.services;
    reply.text = reply.final ?? reply.text;
    reply.status = "completed";
    reply.stop_reason = "end_turn";
    ledger.chargeAfter(caller.account.id, ASK_CATEGORY, turnPrice(ledger, caller.account.id, reply.tokens));
    if (chat.name === null) {
      const turns = this.chatTurns(chat);
      const done = turns.filter((m) => m.role === "assistant" && m.status === "completed");
      const first = turns.find((m) => m.role === "user");
      if (done.length >= NAME_AFTER_TURNS && first) chat.name = chatName(first.text);
    }
    this.onSettled(reply);
  }
}
