// JSON-RPC batches on the MCP endpoint (D-REF-MCP-BATCH). Only MCP 2025-03-26
// has them (2025-06-18 removed them; 2024-11-05 never had them). A POST whose
// MCP-Protocol-Version is 2025-03-26, or that sends none (the version the
// transport rules say to assume then), gets JSON-RPC 2.0 batch semantics:
// every request its own answer (duplicate ids too), notifications none, an
// empty array one Invalid Request, an answer array only when something is
// answered. Under any other version an array is one Invalid Request.
import { ErrorCode, DEFAULT_NEGOTIATED_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { errorResponse, judgeMessage, type JsonRpcErrorResponse } from "./json-rpc-gate.ts";

/** The one MCP version with JSON-RPC batches. */
export const BATCH_PROTOCOL_VERSION = "2025-03-26";

/** Most messages one batch may hold (the SDK transport's own cap). */
export const MAX_BATCH_MESSAGES = 100;

export type BatchAnswer =
  { status: 200; body: object[] } | { status: 202 } | { status: 400; body: JsonRpcErrorResponse };

export interface BatchDeps {
  /** Count the batch's messages beyond the first against the key's bucket; false when it cannot take them. */
  countMessages(extra: number): boolean;
  /** The answer to one request that passed the gate. */
  answerRequest(message: unknown): Promise<object>;
}

/** The version a POST speaks: its header, or the version assumed without one. */
export function versionOf(header: string | undefined): string {
  return header ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
}

function refused(message: string): BatchAnswer {
  return { status: 400, body: errorResponse(null, ErrorCode.InvalidRequest, `Invalid Request: ${message}`) };
}

export class BatchRateLimited extends Error {}

export async function answerBatch(batch: unknown[], version: string, deps: BatchDeps): Promise<BatchAnswer> {
  if (version !== BATCH_PROTOCOL_VERSION) {
    return refused(`MCP ${version} has no JSON-RPC batches; send one message per request`);
  }
  if (batch.length === 0) return refused("an empty batch");
  if (batch.length > MAX_BATCH_MESSAGES) return refused(`a batch holds at most ${MAX_BATCH_MESSAGES} messages`);
  if (!deps.countMessages(batch.length - 1)) throw new BatchRateLimited();
  const answers = await Promise.all(
    batch.map(async (message): Promise<object | undefined> => {
      const judged = judgeMessage(message);
      if (judged.kind === "error") return judged.response;
      if (judged.kind === "silent") return undefined;
      if (judged.method === "initialize") {
        return errorResponse(
          judged.id,
          ErrorCode.InvalidRequest,
          "Invalid Request: initialize must not be part of a batch",
        );
      }
      return deps.answerRequest(message);
    }),
  );
  const body = answers.filter((a): a is object => a !== undefined);
  return body.length ? { status: 200, body } : { status: 202 };
}
