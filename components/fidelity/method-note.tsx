// The probe's method in plain words, on the page (docs/probe.md says the same at more length).

export function ProbeMethodNote() {
  return (
    <details className="text-sm text-slate-700">
      <summary className="cursor-pointer font-medium text-slate-800">How the probe decides</summary>
      <ol className="mt-2 list-decimal space-y-1.5 pl-5">
        <li>
          <strong>The question.</strong> Is the endpoint&apos;s expected next-token distribution within a margin Δ of the reference&apos;s, in
          nats per token of KL(reference ‖ endpoint)? Δ is 0.001 nats/token by default: an 8-bit conversion is about that large, a 4-bit
          re-quantization ten to forty times larger, numerics alone (bf16, another summation order, batching) well under Δ/4.
        </li>
        <li>
          <strong>Pinning and prompt format.</strong> Every request carries <code>provider: {"{only: [tag], allow_fallbacks: false}"}</code>; an
          answer from another provider makes the endpoint <em>not pinned</em>. Each prompt&apos;s <code>usage.prompt_tokens</code> must equal the
          reference&apos;s, else <em>prompt format differs</em>.
        </li>
        <li>
          <strong>Many positions, replicates on both sides.</strong> The reference answers every prompt four times (two early, two late, at
          random times across the run), each endpoint twice, 16 tokens on the greedy path with the top 20 logprobs at every position, the
          model&apos;s sampler and thinking mode sent on every request. Positions are compared while every answer took the same path. Each
          side&apos;s expected distribution is the mean of its answers, so a side&apos;s own nondeterminism averages out instead of counting as a
          difference; KL is computed on the tokens every answer lists plus one remainder bucket per side, minus its finite-replicate bias.
        </li>
        <li>
          <strong>On-policy positions.</strong> The positions a drafter is trained on are the model&apos;s own sampled text, not the greedy
          path. For every prompt the reference samples a continuation at the run&apos;s sampler; its first half is sent to both sides as a
          trailing assistant message, and the same replicates read on from there. Those positions join the prompt&apos;s own. An endpoint that
          answers such a message as a new turn (its prompt tokens count one more turn than the reference&apos;s on most prompts; an endpoint that
          continues leaves out only the prompts where they did) or refuses it is read on the greedy path only, and its row says so. The reference is checked as
          well: its reads after the prefix must start with the token its own draft ranked first there, on at least half the prompts; if not,
          it answers the message as a new turn, and no endpoint is read on-policy.
        </li>
        <li>
          <strong>Interval and verdict.</strong> A 95% t-interval over prompts (prompts are the units). <em>Equivalent</em>: the whole interval
          is below Δ. <em>Differs</em>: the whole interval is above Δ. <em>Cannot tell</em>: it straddles Δ, too few prompts were compared, the
          reference was unstable (its early answers against its late ones, the A/A, above Δ/4), or the two sides&apos; logprobs are not of the
          same kind (raw vs processed). <em>Unverifiable</em>: no logprobs on one side, so nothing bounds the divergence; samples are still
          compared and said in the reason, but they never certify.
        </li>
        <li>
          <strong>What it does not prove.</strong> The KL is measured on the listed tokens, a lower bound of the full-vocabulary KL (on real
          8-bit formats about 85-94% of it, in the bench), at the prompts of the run, on the greedy path and after one sampled continuation
          per prompt: at a true divergence of exactly Δ about a third of runs still say <em>equivalent</em>. A team that wants the edge inside
          its margin sets Δ a fifth lower. An endpoint may behave differently on other prompts, at other times, or with thinking on.
        </li>
      </ol>
    </details>
  );
}
