// The row the previews group stores: the preview as it was answered, kept for free re-reads.
import type { PreviewsResearchPreview } from "../../../../generated/client/types.gen.ts";
import type { Row } from "../../platform/store.ts";

export interface PreviewRow extends Row {
  result: PreviewsResearchPreview;
}
