// The assistant group's two resources, thin adapters over AssistantService:
// POST /v1/ask (202 at once) and /v1/chats/{chat_id} (read a chat, list its
// messages, poll one message; every read is seat-scoped).
import { Hono } from "hono";
import {
  zAskAskBody,
  zChatsListMessagesPath,
  zChatsListMessagesQuery,
  zChatsReadMessagePath,
  zChatsReadPath,
} from "../../../generated/client/zod.gen.ts";
import type { Services } from "../compose.ts";
import { list, ok } from "../platform/envelope.ts";
import type { AppEnv } from "../platform/env.ts";
import { validBody, validPath, validQuery } from "../platform/validation.ts";

export function askResource(services: Services) {
  const app = new Hono<AppEnv>();
  app.post("/", validBody(zAskAskBody), (c) =>
    c.json(ok(services.assistant.ask(c.get("principal"), c.req.valid("json"))), 202),
  );
  return app;
}

export function chatsResource(services: Services) {
  const app = new Hono<AppEnv>();
  const { assistant } = services;

  app.get("/:chat_id", validPath(zChatsReadPath), (c) =>
    c.json(ok(assistant.readChat(c.get("principal"), c.req.valid("param").chat_id))),
  );

  app.get(
    "/:chat_id/messages",
    validPath(zChatsListMessagesPath),
    validQuery(zChatsListMessagesQuery, "Chats_listMessages"),
    (c) => c.json(list(assistant.listMessages(c.get("principal"), c.req.valid("param").chat_id, c.req.valid("query")))),
  );

  app.get("/:chat_id/messages/:message_id", validPath(zChatsReadMessagePath), (c) => {
    const { chat_id, message_id } = c.req.valid("param");
    return c.json(ok(assistant.readMessage(c.get("principal"), chat_id, message_id)));
  });

  return app;
}
