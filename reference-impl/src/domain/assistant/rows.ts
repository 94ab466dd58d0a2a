// Stored chats and chat messages, and their contract views. Chats carry the
// creating seat's `user_id`: every read is seat-scoped (chats are private to
// their seat; any other seat, owner included, gets 404).
import type {
  AssistantAssistantTurnStatus,
  AssistantChat,
  AssistantChatMessage,
  AssistantChatMessageStatus,
  AssistantMessageContext,
  CommonReference,
} from "../../../../generated/client/types.gen.ts";
import { unixSeconds } from "../../platform/clock.ts";
import type { SeatRow } from "../../platform/store.ts";

export interface ChatRow extends SeatRow {
  name: string | null;
  tracking_agent_id: string | null;
}

export interface MessageRow extends SeatRow {
  chat_id: string;
  role: "user" | "assistant";
  /** What a poll shows now: the partial text while working, the whole text once settled. */
  text: string;
  context?: AssistantMessageContext;
  references?: CommonReference[];
  status: AssistantAssistantTurnStatus;
  stop_reason: string | null;
  /** The whole reply once written (revealed piece by piece into `text`). */
  final: string | null;
  /** Tokens the turn's charge was based on (D-ASK-CHARGE). */
  tokens: number;
  /** Why a failed turn failed (kept for diagnosis; not part of the contract view). */
  failure?: string;
}

export function chatView(c: ChatRow): AssistantChat {
  return { id: c.id, name: c.name, tracking_agent_id: c.tracking_agent_id, created_at: unixSeconds(c.created_ms) };
}

export function messageView(m: MessageRow): AssistantChatMessage {
  const view: AssistantChatMessage = { id: m.id, role: m.role, text: m.text, created_at: unixSeconds(m.created_ms) };
  if (m.role === "user") view.context = m.context ?? {};
  // While working, references are absent (D-MESSAGE-POLL).
  if (m.role === "assistant" && m.status !== "working") view.references = m.references ?? [];
  return view;
}

export function messageStatusView(m: MessageRow): AssistantChatMessageStatus {
  return { ...messageView(m), status: m.status, stop_reason: m.stop_reason };
}
