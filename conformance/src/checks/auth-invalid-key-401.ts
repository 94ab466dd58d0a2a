import { authCheck } from "./support/auth.ts";
/** An unknown key: 401 unauthorized on every operation. */
export default authCheck(
  "auth-invalid-key-401",
  "A request with an unknown x-api-key gets 401 unauthorized on every operation",
  { invalid: "slk_invalid_key_for_conformance_0000000000" },
);
