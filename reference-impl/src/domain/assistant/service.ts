// Assistant rules shared by REST (`/v1/ask`, `/v1/chats`) and MCP (`svc__ask`,
// `svc__get_message`, `svc__render`): chats private to their seat, the
// order of checks of an ask (chat 404, then the assistant's availability,
// then the balance; nothing is created before all pass), the turn on the
// clock, polling, message lists, and the MCP views of a turn.
import type * as z from "zod";
import type {
  AssistantAskAccepted,
  AssistantChat,
  AssistantChatMessage,
  AssistantChatMessageStatus,
  McpBlock,
  McpGetMessageResult,
} from "../../../../generated/client/types.gen.ts";
import type { zAskAskBody } from "../../../../generated/client/zod.gen.ts";
import type { Cancel } from "../../platform/clock.ts";
import type { Caller } from "../../platform/env.ts";
import { NotFoundError } from "../../platform/errors.ts";
import { faultError } from "../../platform/faults.ts";
import { newId } from "../../platform/ids.ts";
import type { PageResult } from "../../platform/pagination.ts";
import { Table } from "../../platform/store.ts";
import { mentionKey } from "../mentions/record.ts";
import { requireAskBalance } from "./billing.ts";
import { DeterministicEngine } from "./deterministic-engine.ts";
import type { AssistantEngine } from "./engine.ts";
import { chatView, messageStatusView, messageView, type ChatRow, type MessageRow } from "./rows.ts";
import { TurnRunner, type TurnNeeds } from "./turn.ts";

export type AskBody = z.output<typeof zAskAskBody>;

/** What the assistant needs from the composition root (compose.ts): its turns' needs cover its own (ledger, clock, mentions). */
export type AssistantNeeds = TurnNeeds;

export type AssistantFault = "unavailable" | "timeout";

export interface AssistantSettings {
  /** ASSISTANT_FAULT: every ask answers this fault (503 or 504) until the server restarts. */
  fault?: AssistantFault | undefined;
}

/**
 * Phrases that make one ask answer a fault, so clients can exercise their
 * handling against a normal server (D-REF-ASSISTANT-FAULTS).
 */
export const FAULT_PHRASES: Record<AssistantFault, string> = {
  unavailable: "#simulate:ai_assistant_unavailable",
  timeout: "#simulate:ai_assistant_timeout",
};

export class AssistantService {
  readonly chats = new Table<ChatRow>();
  readonly messages = new Table<MessageRow>({ indexes: { byChat: (m) => m.chat_id } });
  settings: AssistantSettings = {};
  /** Swap in another engine (a real model) here; the default needs no network. */
  engine: AssistantEngine = new DeterministicEngine();
  readonly turns: TurnRunner;
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(private readonly services: AssistantNeeds) {
    this.turns = new TurnRunner(
      services,
      () => this.engine,
      (reply) => this.notify(reply.id),
      (chat) => this.messages.childrenOf(chat.account_id, "byChat", chat.id),
    );
  }

  /** The caller's own chat, or 404 `chat_not_found` (unknown, foreign and other seats alike). */
  private chat(caller: Caller, chatId: string): ChatRow {
    const chat = this.chats.getForSeat(caller.account.id, caller.seat.user_id, chatId);
    if (!chat) throw new NotFoundError("chat_not_found", `Chat ${chatId} not found.`);
    return chat;
  }

  private message(caller: Caller, chatId: string, messageId: string): MessageRow {
    const chat = this.chat(caller, chatId);
    const m = this.messages.get(caller.account.id, messageId);
    // D-MESSAGE-404: an unknown message of a visible chat is also `chat_not_found`.
    if (!m || m.chat_id !== chat.id)
      throw new NotFoundError("chat_not_found", `Message ${messageId} not found in chat ${chatId}.`);
    return m;
  }

  private checkAvailable(message: string): void {
    const fault =
      this.settings.fault ??
      (message.includes(FAULT_PHRASES.unavailable)
        ? "unavailable"
        : message.includes(FAULT_PHRASES.timeout)
          ? "timeout"
          : undefined);
    // The same answers as `Prefer: fault=503` / `fault=504` (platform/faults.ts).
    if (fault === "unavailable") throw faultError("Ask_ask", "503");
    if (fault === "timeout") throw faultError("Ask_ask", "504");
  }

  /** POST /v1/ask: 202 at once; the reply is written on the clock. */
  ask(caller: Caller, body: AskBody): AssistantAskAccepted {
    const accountId = caller.account.id;
    const existing = body.chat_id !== undefined ? this.chat(caller, body.chat_id) : undefined;
    this.checkAvailable(body.message);
    requireAskBalance(this.services.ledger, accountId);

    const now = this.services.clock.now();
    const chat =
      existing ??
      this.chats.insert({
        id: newId("ch_"),
        account_id: accountId,
        user_id: caller.seat.user_id,
        created_ms: now,
        deleted_ms: null,
        name: null,
        tracking_agent_id: null,
      });
    const history = this.messages.childrenOf(accountId, "byChat", chat.id);
    const base = {
      account_id: accountId,
      user_id: caller.seat.user_id,
      chat_id: chat.id,
      deleted_ms: null,
      final: null,
      tokens: 0,
    };
    const context: MessageRow["context"] = {};
    if (body.context?.dataset_ids) context.dataset_ids = body.context.dataset_ids;
    if (body.context?.post_refs) context.post_refs = body.context.post_refs;
    const question = this.messages.insert({
      ...base,
      id: newId("msg_"),
      created_ms: now,
      role: "user",
      text: body.message,
      context,
      status: "completed",
      stop_reason: "end_turn",
      final: body.message,
    });
    // One millisecond later, so lists order the question before its reply.
    const reply = this.messages.insert({
      ...base,
      id: newId("msg_"),
      created_ms: now + 1,
      role: "assistant",
      text: "",
      status: "working",
      stop_reason: null,
    });
    this.turns.start({
      caller,
      chat,
      question,
      reply,
      history,
      datasetIds: body.context?.dataset_ids,
      postRefs: body.context?.post_refs,
    });
    return { chat_id: chat.id, message_id: reply.id, status: "working" };
  }

  readChat(caller: Caller, chatId: string): AssistantChat {
    return chatView(this.chat(caller, chatId));
  }

  listMessages(
    caller: Caller,
    chatId: string,
    q: { limit: number; order: "asc" | "desc"; cursor?: string | undefined },
  ): PageResult<AssistantChatMessage> {
    const chat = this.chat(caller, chatId);
    const page = this.messages.page(
      caller.account.id,
      { ...q, scope: { r: "chat_messages", chat: chat.id, order: q.order } },
      undefined,
      {
        index: "byChat",
        parentId: chat.id,
      },
    );
    return { ...page, items: page.items.map(messageView) };
  }

  readMessage(caller: Caller, chatId: string, messageId: string): AssistantChatMessageStatus {
    return messageStatusView(this.message(caller, chatId, messageId));
  }

  // ---- MCP ---------------------------------------------------------------------------

  private notify(messageId: string): void {
    const set = this.waiters.get(messageId);
    this.waiters.delete(messageId);
    for (const wake of set ?? []) wake();
  }

  /**
   * Resolve with the message once it settles, or with its current state after
   * `timeoutMs` of clock time or when `signal` aborts (the MCP long poll).
   * Unknown chats and messages reject with 404 `chat_not_found` at once.
   */
  waitForMessage(
    caller: Caller,
    chatId: string,
    messageId: string,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<AssistantChatMessageStatus> {
    let m: MessageRow;
    try {
      m = this.message(caller, chatId, messageId);
    } catch (error) {
      return Promise.reject(error);
    }
    if (m.status !== "working" || options.signal?.aborted) return Promise.resolve(messageStatusView(m));
    return new Promise((resolve) => {
      let cancelTimer: Cancel = () => {};
      const done = () => {
        cancelTimer();
        this.waiters.get(m.id)?.delete(done);
        options.signal?.removeEventListener("abort", done);
        resolve(messageStatusView(m));
      };
      let set = this.waiters.get(m.id);
      if (!set) this.waiters.set(m.id, (set = new Set()));
      set.add(done);
      cancelTimer = this.services.clock.schedule(options.timeoutMs, done);
      options.signal?.addEventListener("abort", done, { once: true });
    });
  }

  /**
   * Content blocks of a settled turn (D-MCP-BLOCK): the markdown as one
   * `text` block (`render: false`, text present); when posts are cited, an
   * `openui` block (`render: true`, no text) whose widget lists them. Empty
   * while working (D-MCP-STOP-REASON).
   */
  blocks(m: MessageRow): McpBlock[] {
    if (m.status === "working") return [];
    const out: McpBlock[] = [{ block_id: `${m.id}.text`, type: "text", render: false, text: m.text }];
    if ((m.references ?? []).some((r) => r.type === "post"))
      out.push({ block_id: `${m.id}.posts`, type: "openui", render: true });
    return out;
  }

  /** `svc__get_message` result for a message state. */
  mcpMessage(chatId: string, view: AssistantChatMessageStatus, row?: MessageRow): McpGetMessageResult {
    const m = row ?? this.messages.raw(view.id)!;
    return {
      chat_id: chatId,
      message_id: view.id,
      status: view.status,
      stop_reason: view.stop_reason,
      blocks: this.blocks(m),
    };
  }

  /** `svc__render`: the widget payload of a `render: true` block of one of the caller's messages. */
  renderBlock(caller: Caller, messageId: string, blockId: string): { block_id: string; content: string } {
    const m = this.messages.get(caller.account.id, messageId);
    const chat = m ? this.chats.getForSeat(caller.account.id, caller.seat.user_id, m.chat_id) : undefined;
    const block = m && chat ? this.blocks(m).find((b) => b.block_id === blockId && b.render) : undefined;
    if (!m || !block) throw new NotFoundError("not_found", `Block ${blockId} of message ${messageId} not found.`);
    const pool = this.services.mentions(caller.account.id);
    const posts = (m.references ?? []).flatMap((r) => {
      if (r.type !== "post") return [];
      const rec = pool.get(mentionKey(r.source, r.id));
      return [
        {
          citation: r.citation,
          source: r.source,
          id: r.id,
          title: rec?.post.title ?? null,
          url: rec?.post.url ?? null,
          author: rec?.post.author.display_name ?? null,
        },
      ];
    });
    return { block_id: block.block_id, content: JSON.stringify({ widget: "cited_posts", posts }) };
  }
}
