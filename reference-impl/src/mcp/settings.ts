// Server settings of the MCP endpoint. Defaults follow the seed; tests and
// `npm start` (MCP_* variables) override them.

export interface McpSettings {
  /**
   * Prefix of every tool name. The seed's `svc__` is a neutral stand-in for
   * the service-specific prefix, so a deployment chooses its own.
   */
  toolPrefix: string;
  /** How long `svc__get_message` holds a working turn, in clock milliseconds (seed: about 45 s). */
  longPollMs: number;
  /**
   * Host names (without port) a request's `Host` and `Origin` may carry
   * besides the loopback names, e.g. the public name of a deployment. A
   * browser page on any other origin is refused (DNS rebinding protection).
   */
  allowedHosts: string[];
  /**
   * Answer a plain single `tools/call` without building the SDK's protocol
   * server and transport (mcp/quick-call.ts; same bytes). Off sends
   * every message through the SDK; the tests compare the two.
   */
  quickCalls: boolean;
}

export const DEFAULT_MCP_SETTINGS: McpSettings = {
  toolPrefix: "svc__",
  longPollMs: 45_000,
  allowedHosts: [],
  quickCalls: true,
};

/** The MCP endpoint's path; the trailing slash is part of it (seed › Authentication › MCP 1). */
export const MCP_PATH = "/mcp/";

/** Where the RFC 9728 protected-resource metadata of the endpoint lives. */
export const METADATA_PATH = "/.well-known/oauth-protected-resource";
