// Mutation harness, shard 2 (see mutation-harness.ts and mutation.test.ts).
import { mutationShard } from "./mutation-harness.ts";

mutationShard(1);
