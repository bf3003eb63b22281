// The timing method, shared with crates/genui-core/examples/peer.rs (which
// implements the same steps with the same constants): a few warm-up calls,
// then SAMPLES samples of `reps` back-to-back calls each, `reps` chosen so a
// sample lasts about SAMPLE_TARGET_NS (short calls are batched, so the
// clock's own cost does not dominate). The result is the median of the
// per-call times of the samples, in nanoseconds.

export const WARMUP = 5;
export const SAMPLES = 15;
export const SAMPLE_TARGET_NS = 100_000;
export const MAX_REPS = 10_000;

/** Median nanoseconds per call of `fn` (which must not throw). */
export function medianNs(fn) {
  for (let i = 0; i < WARMUP; i++) fn();
  const t0 = process.hrtime.bigint();
  fn();
  const once = Number(process.hrtime.bigint() - t0);
  const reps = Math.min(MAX_REPS, Math.max(1, Math.ceil(SAMPLE_TARGET_NS / Math.max(once, 1))));
  const samples = [];
  for (let s = 0; s < SAMPLES; s++) {
    const start = process.hrtime.bigint();
    for (let r = 0; r < reps; r++) fn();
    samples.push(Number(process.hrtime.bigint() - start) / reps);
  }
  return { ns: median(samples), reps };
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
