// Every seed-level failure the kit reports on cleanroom-a (an implementation
// of the whole seed that another team wrote from the seed alone, kept in
// ../shared/foreign/cleanroom-a and never edited), each a rule of the seed
// that implementation really breaks, with the seed's words it breaks.
// test/foreign.test.ts runs the whole kit against it at --level seed and
// fails on a failure no entry covers (an error of the kit, to fix in the kit,
// never here) and on an entry that covers no failure (a violation the kit no
// longer catches).
import type { TriagedViolation } from "./triage.ts";

export const CLEANROOM_A_TRIAGE: TriagedViolation[] = [];
