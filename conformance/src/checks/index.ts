// The check registry: one rule per file, the file named after the rule.
// Active checks run in this order; response-level checks then inspect every exchange.
import type { Check } from "../types.ts";
import c_valid_run_body_accepted from "./valid-run-body-accepted.ts";
import c_money_six_decimals from "./money-six-decimals.ts";
import c_unauthenticated_no_ratelimit_headers from "./unauthenticated-no-ratelimit-headers.ts";
import c_credit_prices_removed_404 from "./credit-prices-removed-404.ts";
import c_date_range_order_422 from "./date-range-order-422.ts";
import c_impossible_date_422 from "./impossible-date-422.ts";
import c_auth_missing_key_401 from "./auth-missing-key-401.ts";
import c_auth_invalid_key_401 from "./auth-invalid-key-401.ts";
import c_invalid_request_rejected from "./invalid-request-rejected.ts";
import c_malformed_json_rejected from "./malformed-json-rejected.ts";
import c_body_limit_413 from "./body-limit-413.ts";
import c_content_type_415 from "./content-type-415.ts";
import c_me_usage_adds_up from "./me-usage-adds-up.ts";
import c_valid_request_accepted from "./valid-request-accepted.ts";
import c_created_readable_at_once from "./created-readable-at-once.ts";
import c_deleted_gone_everywhere from "./deleted-gone-everywhere.ts";
import c_patch_semantics from "./patch-semantics.ts";
import c_foreign_id_404_indistinguishable from "./foreign-id-404-indistinguishable.ts";
import c_lists_never_leak_foreign from "./lists-never-leak-foreign.ts";
import c_second_seat_shares_account from "./second-seat-shares-account.ts";
import c_pagination_full_walk from "./pagination-full-walk.ts";
import c_pagination_default_order from "./pagination-default-order.ts";
import c_pagination_end_cursor_null from "./pagination-end-cursor-null.ts";
import c_pagination_limit_respected from "./pagination-limit-respected.ts";
import c_pagination_padding_optional from "./pagination-padding-optional.ts";
import c_pagination_garbage_cursor_400 from "./pagination-garbage-cursor-400.ts";
import c_pagination_sort_change_cursor_400 from "./pagination-sort-change-cursor-400.ts";
import c_mentions_sort_applied from "./mentions-sort-applied.ts";
import c_mentions_filters_applied from "./mentions-filters-applied.ts";
import c_usage_history_newest_first_shared from "./usage-history-newest-first-shared.ts";
import c_prices_match_unit_ratios from "./prices-match-unit-ratios.ts";
import c_billing_reservation_at_create from "./billing-reservation-at-create.ts";
import c_billing_settlement_exact from "./billing-settlement-exact.ts";
import c_billing_refund_on_failure from "./billing-refund-on-failure.ts";
import c_billing_402_refused_charges_nothing from "./billing-402-refused-charges-nothing.ts";
import c_billing_usage_history_matches from "./billing-usage-history-matches.ts";
import c_run_state_machine from "./run-state-machine.ts";
import c_rate_limit_burst_429 from "./rate-limit-burst-429.ts";
import c_rate_limit_per_key from "./rate-limit-per-key.ts";
import c_rate_limit_recovers from "./rate-limit-recovers.ts";
import c_success_envelope from "./success-envelope.ts";
import c_status_string_mapping from "./status-string-mapping.ts";
import c_json_content_type from "./json-content-type.ts";
import c_empty_body_204 from "./empty-body-204.ts";
import c_response_schema_conformance from "./response-schema-conformance.ts";
import c_documented_status_only from "./documented-status-only.ts";
import c_no_server_errors from "./no-server-errors.ts";
import c_error_envelope from "./error-envelope.ts";
import c_validation_loc_accurate from "./validation-loc-accurate.ts";
import c_rate_limit_headers from "./rate-limit-headers.ts";
import c_billing_balance_never_negative from "./billing-balance-never-negative.ts";
import c_id_prefix_advisory from "./id-prefix-advisory.ts";
// group rules (issue 10 § 2)
import c_audience_run_codes_in_order from "./audience-run-codes-in-order.ts";
import c_audience_run_409_in_flight from "./audience-run-409-in-flight.ts";
import c_audience_profile_billing from "./audience-profile-billing.ts";
import c_audience_profiles_after_source_delete from "./audience-profiles-after-source-delete.ts";
import c_preview_charge_per_source from "./preview-charge-per-source.ts";
import c_preview_url_charge_per_returning_url from "./preview-url-charge-per-returning-url.ts";
import c_preview_reread_free from "./preview-reread-free.ts";
import c_preview_402_before_work from "./preview-402-before-work.ts";
import c_preview_future_window from "./preview-future-window.ts";
import c_pattern_detection_billing_latest_run from "./pattern-detection-billing-latest-run.ts";
import c_pattern_item_post_count from "./pattern-item-post-count.ts";
import c_pattern_detection_codes from "./pattern-detection-codes.ts";
import c_pattern_assignments_real_items from "./pattern-assignments-real-items.ts";
import c_custom_parameter_name_rules from "./custom-parameter-name-rules.ts";
import c_custom_parameter_run_codes from "./custom-parameter-run-codes.ts";
import c_custom_parameter_delete_frees_name from "./custom-parameter-delete-frees-name.ts";
import c_custom_parameter_preview_free from "./custom-parameter-preview-free.ts";
import c_custom_parameter_run_counters from "./custom-parameter-run-counters.ts";
import c_custom_parameter_values_via_parameter_ids from "./custom-parameter-values-via-parameter-ids.ts";
import c_custom_parameter_run_409_in_flight from "./custom-parameter-run-409-in-flight.ts";
import c_tracking_agent_pause_resume from "./tracking-agent-pause-resume.ts";
import c_tracking_agent_patch from "./tracking-agent-patch.ts";
import c_tracking_agent_trigger_202_then_409 from "./tracking-agent-trigger-202-then-409.ts";
import c_tracking_agent_cycle_billing from "./tracking-agent-cycle-billing.ts";
import c_tracking_agent_no_queries_400 from "./tracking-agent-no-queries-400.ts";
import c_tracking_agent_feed_newest_first from "./tracking-agent-feed-newest-first.ts";
import c_tracking_agent_deleted_hidden from "./tracking-agent-deleted-hidden.ts";
import c_ask_202_polls_to_completion from "./ask-202-polls-to-completion.ts";
import c_ask_citation_invariants from "./ask-citation-invariants.ts";
import c_chats_private_to_seat from "./chats-private-to-seat.ts";
import c_ask_402_creates_nothing from "./ask-402-creates-nothing.ts";
import c_audience_run_state_machine from "./audience-run-state-machine.ts";
import c_custom_parameter_run_state_machine from "./custom-parameter-run-state-machine.ts";
import c_pattern_detection_run_state_machine from "./pattern-detection-run-state-machine.ts";
// MCP surface (issue 10 § 3)
import c_mcp_trailing_slash_307 from "./mcp-trailing-slash-307.ts";
import c_mcp_unauthenticated_401 from "./mcp-unauthenticated-401.ts";
import c_mcp_auth_order from "./mcp-auth-order.ts";
import c_mcp_tool_catalogue from "./mcp-tool-catalogue.ts";
import c_mcp_tool_error_shape from "./mcp-tool-error-shape.ts";
import c_mcp_bad_arguments_tool_error from "./mcp-bad-arguments-tool-error.ts";
import c_mcp_list_cursor_walk from "./mcp-list-cursor-walk.ts";
import c_mcp_rest_agreement from "./mcp-rest-agreement.ts";
import c_mcp_read_tools_free from "./mcp-read-tools-free.ts";
import c_mcp_ask_flow from "./mcp-ask-flow.ts";
import c_mcp_rate_limit_shared from "./mcp-rate-limit-shared.ts";
export { trafficDriver } from "./support/traffic.ts";

export const allChecks: Check[] = [
  c_auth_missing_key_401,
  c_auth_invalid_key_401,
  c_invalid_request_rejected,
  c_malformed_json_rejected,
  c_body_limit_413,
  c_content_type_415,
  c_date_range_order_422,
  c_impossible_date_422,
  c_valid_request_accepted,
  c_created_readable_at_once,
  c_deleted_gone_everywhere,
  c_patch_semantics,
  c_credit_prices_removed_404,
  c_pagination_full_walk,
  c_pagination_default_order,
  c_pagination_end_cursor_null,
  c_pagination_limit_respected,
  c_pagination_padding_optional,
  c_pagination_garbage_cursor_400,
  c_pagination_sort_change_cursor_400,
  c_mentions_sort_applied,
  c_mentions_filters_applied,
  c_usage_history_newest_first_shared,
  c_prices_match_unit_ratios,
  c_me_usage_adds_up,
  c_billing_reservation_at_create,
  c_billing_settlement_exact,
  c_billing_refund_on_failure,
  c_billing_402_refused_charges_nothing,
  c_billing_usage_history_matches,
  c_run_state_machine,
  c_valid_run_body_accepted,
  // group rules (issue 10 § 2)
  c_audience_run_codes_in_order,
  c_audience_run_409_in_flight,
  c_audience_profile_billing,
  c_audience_run_state_machine,
  // deletes the shared audience source: after every other audience check
  c_audience_profiles_after_source_delete,
  c_preview_charge_per_source,
  c_preview_url_charge_per_returning_url,
  c_preview_reread_free,
  c_preview_402_before_work,
  c_preview_future_window,
  c_pattern_detection_billing_latest_run,
  c_pattern_item_post_count,
  c_pattern_detection_codes,
  c_pattern_assignments_real_items,
  c_custom_parameter_name_rules,
  c_custom_parameter_run_codes,
  c_custom_parameter_delete_frees_name,
  c_custom_parameter_preview_free,
  c_custom_parameter_run_counters,
  c_custom_parameter_values_via_parameter_ids,
  c_custom_parameter_run_409_in_flight,
  c_tracking_agent_pause_resume,
  c_tracking_agent_patch,
  c_tracking_agent_trigger_202_then_409,
  c_tracking_agent_cycle_billing,
  c_tracking_agent_no_queries_400,
  c_tracking_agent_feed_newest_first,
  c_tracking_agent_deleted_hidden,
  c_ask_202_polls_to_completion,
  c_ask_citation_invariants,
  c_chats_private_to_seat,
  c_ask_402_creates_nothing,
  c_custom_parameter_run_state_machine,
  c_pattern_detection_run_state_machine,
  c_foreign_id_404_indistinguishable,
  c_lists_never_leak_foreign,
  c_second_seat_shares_account,
  c_rate_limit_burst_429,
  c_rate_limit_per_key,
  c_rate_limit_recovers,
  c_mcp_trailing_slash_307,
  c_mcp_unauthenticated_401,
  c_mcp_auth_order,
  c_mcp_tool_catalogue,
  c_mcp_tool_error_shape,
  c_mcp_bad_arguments_tool_error,
  c_mcp_list_cursor_walk,
  c_mcp_rest_agreement,
  c_mcp_read_tools_free,
  c_mcp_ask_flow,
  c_mcp_rate_limit_shared,
  c_success_envelope,
  c_status_string_mapping,
  c_json_content_type,
  c_empty_body_204,
  c_response_schema_conformance,
  c_documented_status_only,
  c_no_server_errors,
  c_error_envelope,
  c_validation_loc_accurate,
  c_rate_limit_headers,
  c_unauthenticated_no_ratelimit_headers,
  c_billing_balance_never_negative,
  c_money_six_decimals,
  c_id_prefix_advisory,
];
