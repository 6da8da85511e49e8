"""The CPU inference engine behind the hf backend, and the learner-exact log-prob forward.

- `batching`: the engine thread (continuous batching) that the hf and vllm backends run on;
- `decode`: batched sampling over any transformers causal LM with a KV cache (`Decoder`,
  `HFBatch`); `llama`, `llama_weights`, `prompt_cache`: the lean decoder for Llama and Gemma 3
  models (`LlamaBatch`), its frozen weight snapshot and its cache of recent prompts;
- `sampling`: seeded temperature / top-p sampling with the log-probs a learner recomputes;
- `logprobs`: token log-probs of a model's forward pass (chunked, packed), the learner's side.

No backend, prompt or config here: `mars2.agents` builds policies on top of it.
"""
