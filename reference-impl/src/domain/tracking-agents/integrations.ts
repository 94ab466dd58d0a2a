// Integrations are configured in the web app, not through the API
// (D-TA-INTEGRATION); an agent only attaches them by id. The reference knows a
// fixed set per demo account (D-REF-INTEGRATIONS) so `integration_ids` can be
// exercised: an id outside the caller's set is 404 `not_found`.
import type { TrackingAgentsIntegration } from "../../../../generated/client/types.gen.ts";

const CONFIGURED: Record<string, TrackingAgentsIntegration[]> = {
  acc_demoA: [
    { id: "int_slack_6Tq2", type: "slack" },
    { id: "int_email_2Rb7", type: "email" },
  ],
  acc_demoB: [{ id: "int_webhook_9Kd3", type: "webhook" }],
};

export function integrationOf(accountId: string, id: string): TrackingAgentsIntegration | undefined {
  return CONFIGURED[accountId]?.find((i) => i.id === id);
}
