// The tracking agents group's stores: agents, their cycles and their alerts,
// with cycles and alerts indexed by agent so a feed never scans the account.
import { Table } from "../../platform/store.ts";
import type { AgentMessageRow, AgentRow, AgentRunRow } from "./rows.ts";

export class AgentTables {
  readonly agents = new Table<AgentRow>();
  readonly runs = new Table<AgentRunRow>({ indexes: { byAgent: (r) => r.agent_id } });
  readonly messages = new Table<AgentMessageRow>({ indexes: { byAgent: (r) => r.agent_id } });
}
