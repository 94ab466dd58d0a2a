// Minimal typing of the `sentiment` package (AFINN lexicon), which ships none.
declare module "sentiment" {
  interface AnalysisResult {
    score: number;
    comparative: number;
    calculation: Record<string, number>[];
    tokens: string[];
    words: string[];
    positive: string[];
    negative: string[];
  }
  class Sentiment {
    analyze(phrase: string): AnalysisResult;
  }
  export default Sentiment;
}
