// Mutation harness, shard 3 (see mutation-harness.ts and mutation.test.ts).
import { mutationShard } from "./mutation-harness.ts";

mutationShard(2);
