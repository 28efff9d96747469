export interface HttpLoadResult {
  calls: number;
  errors: number;
  leaks: number;
  ms: number;
  callsPerSec: number;
  problems: string[];
}
export function httpLoad(opts?: { sessions?: number; calls?: number; bin?: string }): Promise<HttpLoadResult>;
declare const httpLoadCase: {
  id: string;
  title: string;
  run(ctx?: { mcpfs?: string }): Promise<Record<string, unknown>[]>;
};
export default httpLoadCase;
