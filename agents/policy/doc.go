// Package policy plays trained neural policies: files in the botarena
// policy format (docs/policy-format.md), which Python writes with PyTorch
// (python/src/botarena/policy.py), as agents named "policy:PATH" (the
// masked arg-max) or "policy:PATH?sample" (a draw from the probabilities
// with the agent's per-episode seed). Importing the package registers the
// scheme for every game.
//
// # Files and models
//
// A policy file is a safetensors file (F32 or F64 tensors) whose
// __metadata__["botarena.policy"] holds the [Architecture]. [Load] and
// [Decode] read one strictly: a file over [MaxFileBytes] or not regular
// (checked from its Stat, before it is opened), a header over
// [MaxHeaderBytes], offsets
// outside the data, overlapping or leaving holes, a shape that does not
// match its byte length, a tensor the architecture names that is missing or
// has the wrong shape, a tensor it does not name, an unknown op or a
// non-finite weight are errors that name the file and what is wrong.
// Errors never quote a file that is not a policy (no header naming
// "botarena.policy"), not even as the number its first bytes make, and
// quote names from a policy's header cut short.
// [Open] does the same through a cache keyed by absolute path, size and
// modification time, so the 1024 agents of a 1024-env pool share one
// [Model]. A Model is immutable and safe for concurrent use; its weights
// are float64 (converted from the file's float32).
//
// # Forward pass
//
// A [Batch] holds the inputs and outputs of up to Cap samples and the
// scratch of the forward pass; each goroutine needs its own. The network
// input is x[c,...] = float(planes[c,...]) * scale[c] and s[i] =
// scalars[i] * scale[i]; the planes layers run on channel-last
// activations, [positions, channels] per sample, so a convolution is an
// im2col of each output position's patch (kernel offsets major, channels
// minor) times the weights reshaped to [(kd,kh,kw,in), out]; flatten
// restores PyTorch's C order [C,(D,)H,W] before the scalars are appended.
// Linear layers are [n, in] × [in, out] products. Every product goes
// through gonum's blas64.Gemm in tiles of at most three 64×64 blocks of
// the result, below the size from which gonum's Dgemm starts goroutines,
// so a warm Batch never allocates; and every output element sums its
// products in index order, so a sample's result is the same, bit for bit,
// whatever the batch around it. That is what keeps pools deterministic for
// any worker count.
//
// [Probabilities] is the masked softmax of the format (an all-zero mask
// counts as all ones), [ArgMax] the masked arg-max with ties to the lowest
// index, and [Sample] the inverse-CDF draw. Go's float64 probabilities
// agree with PyTorch's float32 ones within 1e-5 (parity_test.go, on
// fixtures PyTorch wrote: testdata/make_fixtures.py).
//
// # Agents and pools
//
// [Agent] implements env.Agent for one seat: Act is a batch of one. It
// also implements vecenv.BatchOpponent, with its [Model] as the
// vecenv.Batcher: a pool worker gathers all the seats that agents of one
// model play in its env range and computes them in one forward pass, with
// the same actions as Act (arg-max, or each agent's own generator drawing
// once per decision).
package policy
