// The probe's method in plain words, on the page (the README says the same at more length).

export function ProbeMethodNote() {
  return (
    <details className="text-sm text-slate-700">
      <summary className="cursor-pointer font-medium text-slate-800">How the probe decides</summary>
      <ol className="mt-2 list-decimal space-y-1.5 pl-5">
        <li>
          <strong>Pinning.</strong> Every request carries <code>provider: {"{only: [tag], allow_fallbacks: false}"}</code>. An answer whose
          <code> provider</code> is not the endpoint&apos;s is counted, never compared, and the endpoint is <em>not pinned</em>.
        </li>
        <li>
          <strong>Prompt format.</strong> Each prompt&apos;s <code>usage.prompt_tokens</code> must equal the reference&apos;s. A difference means
          another chat template or tokenizer: <em>prompt format differs</em>.
        </li>
        <li>
          <strong>Next-token distributions</strong> where both sides support logprobs: one token, temperature 0, the top 20 logprobs,
          reasoning disabled for every endpoint alike (<code>reasoning: {"{enabled: false}"}</code>; an answer that reasoned anyway is not
          compared). Logprobs are exponentiated and renormalised when their mass exceeds 1; the mass left unlisted is one more bucket. Per
          prompt, the total variation (TV) between the endpoint and the reference is set against the TV between two independent reference
          calls (the noise floor, measured, never assumed to be zero). A one-sided paired sign-flip permutation test over prompts decides.
        </li>
        <li>
          <strong>Samples</strong> where logprobs are missing on either side: six completions of eight tokens per prompt, temperature 1,
          compared with the reference&apos;s by MMD with a character-prefix kernel and a permutation p-value (as in Model Equality
          Testing, Gao, Liang &amp; Guestrin, ICLR 2025); the noise floor is the reference against a second set of its own samples.
        </li>
        <li>
          <strong>Verdicts</strong> at level 0.01, p-values corrected over the endpoints of the run (Holm). <em>Matches</em> means no
          difference was detected, with the smallest effect the run could have detected; <em>inconclusive</em> covers too few valid answers
          (under 80% of the prompts), errors, or a noise floor too high to decide. This is a measurement of the outputs, not of precision.
        </li>
      </ol>
      <p className="mt-2 text-xs text-slate-500">
        Why measure: quantization labels are often missing or misleading (Kimi K2.5&apos;s own weights are INT4); Artificial Analysis measured
        one open model&apos;s AIME25 between 36.7% and 93.3% depending on the provider; Moonshot publishes K2-Vendor-Verifier because vendors differ.
      </p>
    </details>
  );
}
