// The dataset run body's defaults as the seed states them (Endpoints ›
// Datasets, dataset run body), with the assertion that judges each, shared by
// the checks that read them back through the run's `params` echo.
import { seed } from "../../grounding/assertions.ts";
import { byDefault } from "../../grounding/facts.ts";

/** Field → its default and the ledger row stating it. */
export const RUN_DEFAULTS = {
  count: { value: 200, assert: seed(["datasets.runs.body.count-default"], byDefault(200)) },
  num_comments_per_post: {
    value: 10,
    assert: seed(["datasets.runs.body.comments-default"], byDefault(10)),
  },
  country_code: {
    value: "US",
    assert: seed(["datasets.runs.body.country-default"], byDefault("US")),
  },
  enable_visual_recognition: {
    value: false,
    assert: seed(["datasets.runs.body.visual-default"], byDefault("false", "enable_visual_recognition")),
  },
  enable_transcribing: {
    value: false,
    assert: seed(["datasets.runs.body.transcribing-default"], byDefault("false", "enable_transcribing")),
  },
} as const;

export type DefaultedField = keyof typeof RUN_DEFAULTS;
export const DEFAULTED_FIELDS = Object.keys(RUN_DEFAULTS) as DefaultedField[];
