import { authCheck } from "./support/auth.ts";
/** No x-api-key header: 401 unauthorized on every operation. */
export default authCheck(
  "auth-missing-key-401",
  "A request without x-api-key gets 401 unauthorized on every operation",
  "none",
);
