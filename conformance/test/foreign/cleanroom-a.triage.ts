// Every seed-level failure the kit reports on cleanroom-a (an implementation
// of the whole seed that another team wrote from the seed alone, kept in
// ../shared/foreign/cleanroom-a and never edited), each a rule of the seed
// that implementation really breaks, with the seed's words it breaks.
// test/foreign.test.ts runs the whole kit against it at --level seed and
// fails on a failure no entry covers (an error of the kit, to fix in the kit,
// never here) and on an entry that covers no failure (a violation the kit no
// longer catches).
import type { TriagedViolation } from "./triage.ts";

const LOC_STRINGS = "`{detail: [{loc: [string], msg: string, type: string}]}` (no envelope).";
const LOC_INTEGERS =
  'a 422 validation body whose loc carries integer positions (["body", 0] for malformed JSON, ["body", "filters", 0, 1] for a list item): the seed types loc as a list of strings';

export const CLEANROOM_A_TRIAGE: TriagedViolation[] = [
  {
    check: "error-envelope",
    judges: "validation",
    title: /^422 validation body has an issue that is not \{loc: \[string\], msg: string, type: string\}$/,
    received: /"loc":\[[^\]]*\d/,
    seed: LOC_STRINGS,
    does: LOC_INTEGERS,
  },
  {
    check: "response-schema-conformance",
    judges: "schema",
    title: /^[A-Za-z]+_[A-Za-z]+ 422 body does not match (Common\.ValidationError|Datasets\.DatasetRunUnprocessable)$/,
    received: /"path":"detail\.\d+\.loc\.\d+"/,
    seed: LOC_STRINGS,
    does: LOC_INTEGERS,
  },
  {
    check: "response-schema-conformance",
    judges: "schema",
    title:
      /^(DatasetRuns_read|AudienceDatasets_readRun) 200 body does not match (Datasets\.DatasetRunEnvelope|Audiences\.AudienceRunEnvelope)$/,
    received: /steps\.\d+\.completed_at.*not null/,
    seed: "`steps` is a list of `{name, completed_at}` (integer Unix seconds)",
    does: "a run in flight lists its unfinished steps with completed_at null; the seed gives completed_at one type, integer Unix seconds, with no 'or null' (where the seed allows null it says so: `name` string or null, `cursor` string or null), so an unfinished step is left out or carries a time",
  },
];
