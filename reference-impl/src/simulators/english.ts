// One wink-nlp instance with its English model for every module that reads
// text (analysis, text reading, media enrichment, the assistant's questions,
// audience profiles). Building one costs about 0.2 s of CPU, so the server
// builds it once, on first use, instead of once per module.
import winkNLP from "wink-nlp";
import model from "wink-eng-lite-web-model";

let nlp: ReturnType<typeof winkNLP> | undefined;

/** The shared English reader. */
export function english(): ReturnType<typeof winkNLP> {
  return (nlp ??= winkNLP(model));
}
