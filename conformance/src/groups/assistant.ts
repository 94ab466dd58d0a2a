import type { GroupSpec } from "./types.ts";

/** Ask starts an assistant turn (202) polled through the chat message; tokens are charged after the reply. */
export const ask: GroupSpec = {
  id: "ask",
  title: "Ask",
  section: "Endpoints › Ask and chats",
  base: "/v1/ask",
};

/** Chats are private to the seat that created them. */
export const chats: GroupSpec = {
  id: "chats",
  title: "Chats",
  section: "Endpoints › Ask and chats",
  base: "/v1/chats",
};
