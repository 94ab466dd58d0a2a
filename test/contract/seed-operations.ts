// The oracle for the document tests: every REST operation of the seed with
// the success status the decisions table gives it and the error codes the
// seed (or a recorded decision) names for it. Written by hand from the seed on
// purpose: it is what the generated document is checked against.
export interface SeedOperation {
  method: "get" | "post" | "patch" | "delete";
  path: string;
  success: 200 | 201 | 202 | 204;
  codes: string[];
}

const op = (
  method: SeedOperation["method"],
  path: string,
  success: SeedOperation["success"],
  codes: string[] = [],
): SeedOperation => ({
  method,
  path,
  success,
  codes,
});

export const seedOperations: SeedOperation[] = [
  // Datasets (8)
  op("post", "/v1/datasets", 201),
  op("get", "/v1/datasets", 200, ["invalid_cursor"]),
  op("get", "/v1/datasets/{dataset_id}", 200, ["dataset_not_found"]),
  op("patch", "/v1/datasets/{dataset_id}", 200, ["dataset_not_found"]),
  op("delete", "/v1/datasets/{dataset_id}", 204, ["dataset_not_found"]),
  op("post", "/v1/datasets/{dataset_id}/runs", 202, [
    "insufficient_credits_dataset_run",
    "dataset_not_found",
    "collection_content_type_mismatch",
    "date_filter_unavailable",
  ]),
  op("get", "/v1/datasets/{dataset_id}/runs", 200, ["dataset_not_found", "invalid_cursor"]),
  op("get", "/v1/datasets/{dataset_id}/runs/{run_id}", 200, ["dataset_not_found"]),
  // Audience datasets (8) and profiles (1)
  op("post", "/v1/audience_datasets", 201, ["bad_request"]),
  op("get", "/v1/audience_datasets", 200, ["invalid_cursor"]),
  op("get", "/v1/audience_datasets/{audience_dataset_id}", 200, ["audience_dataset_not_found"]),
  op("patch", "/v1/audience_datasets/{audience_dataset_id}", 200, ["audience_dataset_not_found"]),
  op("delete", "/v1/audience_datasets/{audience_dataset_id}", 204, ["audience_dataset_not_found"]),
  op("post", "/v1/audience_datasets/{audience_dataset_id}/runs", 202, [
    "source_dataset_has_no_completed_run",
    "audience_youtube_only_source",
    "audience_insufficient_source_mentions",
    "insufficient_credits_audience_dataset_run",
    "audience_dataset_not_found",
    "audience_dataset_run_already_in_flight",
  ]),
  op("get", "/v1/audience_datasets/{audience_dataset_id}/runs", 200, ["audience_dataset_not_found", "invalid_cursor"]),
  op("get", "/v1/audience_datasets/{audience_dataset_id}/runs/{run_id}", 200, ["audience_dataset_not_found"]),
  op("post", "/v1/audience_profiles", 200, ["audience_dataset_not_found", "invalid_cursor"]),
  // Mentions (1)
  op("post", "/v1/mentions", 200, ["dataset_not_found", "invalid_cursor"]),
  // Research previews (2)
  op("post", "/v1/research_previews", 201, ["insufficient_credits_research_preview"]),
  op("get", "/v1/research_previews/{preview_id}", 200, ["not_found"]),
  // Pattern detections and patterns (4)
  op("post", "/v1/pattern_detections", 202, ["insufficient_credits_pattern_detection", "dataset_not_found"]),
  op("get", "/v1/pattern_detections/{run_id}", 200, ["pattern_detection_run_not_found"]),
  op("get", "/v1/patterns/{pattern_id}", 200, ["pattern_not_found"]),
  op("get", "/v1/patterns/{pattern_id}/items/{item_id}", 200, ["pattern_not_found"]),
  // Custom parameters (9)
  op("post", "/v1/custom_parameters", 201, [
    "custom_parameter_limit_exceeded",
    "custom_parameter_duplicate_name",
    "custom_parameter_empty_name",
  ]),
  op("get", "/v1/custom_parameters", 200, ["invalid_cursor"]),
  op("post", "/v1/custom_parameters/preview", 200),
  op("get", "/v1/custom_parameters/{parameter_id}", 200, ["custom_parameter_not_found"]),
  op("patch", "/v1/custom_parameters/{parameter_id}", 200, [
    "custom_parameter_not_found",
    "custom_parameter_duplicate_name",
    "custom_parameter_empty_name",
  ]),
  op("delete", "/v1/custom_parameters/{parameter_id}", 204, ["custom_parameter_not_found"]),
  op("post", "/v1/custom_parameters/{parameter_id}/runs", 202, [
    "insufficient_credits_content_analysis",
    "custom_parameter_not_found",
    "custom_parameter_run_in_flight",
    "nothing_to_analyze",
  ]),
  op("get", "/v1/custom_parameters/{parameter_id}/runs", 200, ["custom_parameter_not_found", "invalid_cursor"]),
  op("get", "/v1/custom_parameters/{parameter_id}/runs/{run_id}", 200, ["custom_parameter_not_found"]),
  // Tracking agents (9)
  op("post", "/v1/tracking_agents", 201, ["tracking_agent_limit_reached"]),
  op("get", "/v1/tracking_agents", 200, ["invalid_cursor"]),
  op("get", "/v1/tracking_agents/{agent_id}", 200, ["not_found"]),
  op("patch", "/v1/tracking_agents/{agent_id}", 200, ["not_found"]),
  op("delete", "/v1/tracking_agents/{agent_id}", 204, ["not_found"]),
  op("post", "/v1/tracking_agents/{agent_id}/pause", 204, ["not_found"]),
  op("post", "/v1/tracking_agents/{agent_id}/resume", 204, ["not_found"]),
  op("post", "/v1/tracking_agents/{agent_id}/trigger", 202, [
    "insufficient_credits",
    "not_found",
    "tracking_agent_run_in_progress",
    "dataset_has_no_queries",
  ]),
  op("get", "/v1/tracking_agents/{agent_id}/messages", 200, ["not_found", "invalid_cursor"]),
  // Ask and chats (4)
  op("post", "/v1/ask", 202, ["insufficient_credits_ask", "ai_assistant_unavailable", "ai_assistant_timeout"]),
  op("get", "/v1/chats/{chat_id}/messages/{message_id}", 200, ["chat_not_found"]),
  op("get", "/v1/chats/{chat_id}", 200, ["chat_not_found"]),
  op("get", "/v1/chats/{chat_id}/messages", 200, ["chat_not_found", "invalid_cursor"]),
  // Account and prices (3)
  op("get", "/v1/me", 200),
  op("get", "/v1/me/usage_history", 200, ["invalid_cursor"]),
  op("get", "/v1/prices", 200),
];

/** The 36 error codes of the seed's Errors section. */
export const seedErrorCodes = [
  "bad_request",
  "source_dataset_has_no_completed_run",
  "audience_youtube_only_source",
  "audience_insufficient_source_mentions",
  "unauthorized",
  "insufficient_credits",
  "insufficient_credits_dataset_run",
  "insufficient_credits_audience_dataset_run",
  "insufficient_credits_pattern_detection",
  "insufficient_credits_content_analysis",
  "insufficient_credits_research_preview",
  "insufficient_credits_ask",
  "dataset_not_found",
  "audience_dataset_not_found",
  "pattern_not_found",
  "pattern_detection_run_not_found",
  "chat_not_found",
  "custom_parameter_not_found",
  "not_found",
  "audience_dataset_run_already_in_flight",
  "unprocessable_entity",
  "too_many_requests",
  "internal_server_error",
  "collection_content_type_mismatch",
  "date_filter_unavailable",
  "custom_parameter_limit_exceeded",
  "custom_parameter_duplicate_name",
  "custom_parameter_empty_name",
  "custom_parameter_run_in_flight",
  "nothing_to_analyze",
  "tracking_agent_limit_reached",
  "tracking_agent_run_in_progress",
  "dataset_has_no_queries",
  "invalid_cursor",
  "ai_assistant_unavailable",
  "ai_assistant_timeout",
];

/**
 * Codes the contract adds to the seed's 36, each with its recorded decision:
 * 413 and 415 for request bodies (D-BODY-LIMIT, D-CONTENT-TYPE, D-GET-BODY)
 * and 417 and 431 for a well-formed request the HTTP layer refuses
 * (D-TRANSPORT-ERRORS), all documented on every operation; 408 answers a
 * request that never arrived whole, so it is in the `ErrorCode` union but on
 * no operation.
 */
export const addedErrorCodes = {
  perOperation: [
    "payload_too_large",
    "unsupported_media_type",
    "expectation_failed",
    "request_header_fields_too_large",
  ],
  transport: ["request_timeout"],
};
