// Token counts as a model pays them: o200k_base (gpt-tokenizer, which ships its encodings) stands in for the
// client's own tokenizer, so read the numbers as ratios between servers, not as any client's bill.
import { encode } from "gpt-tokenizer/encoding/o200k_base";

export const tokens = (text) => encode(text).length;

/** What a model is shown of one tool in tools/list: name, description, input schema. */
export const toolTokens = (t) =>
  tokens(JSON.stringify({ name: t.name, description: t.description ?? "", inputSchema: t.inputSchema }));

/** What a model is shown of a tool reply: its text blocks (structured content goes to the client, not the model). */
export const replyTokens = (result) =>
  tokens(
    (result.content ?? [])
      .filter((c) => c.type === "text")
      .map((c) => c.text)
      .join("\n"),
  );
