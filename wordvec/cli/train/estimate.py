"""``wordvec train --dry-run`` and the memory check before allocation (``--no-memory-check``).

The estimate itself is each model's ``estimate_memory`` (``wordvec.models.base.estimate``); this
module defines the flags and prints it.  ``--no-memory-check`` reaches the model as its
``memory_check`` setting (``wordvec.cli.train.options.run_settings``).
"""

import json

from wordvec.data.vocab import Vocabulary
from wordvec.models.base import estimate


def add_arguments(parser):
    group = parser.add_argument_group("memory")
    group.add_argument("--dry-run", action="store_true",
                       help="count the vocabulary, print the arrays training would allocate and the "
                            "estimated peak memory, and stop (nothing trained or written)")
    group.add_argument("--no-memory-check", action="store_true",
                       help="allocate even when the estimate exceeds the memory available "
                            "(default: refuse, in one sentence, before allocating)")


def dry_run(args, model, corpus):
    """Scan the vocabulary of ``corpus``, print ``model.estimate_memory`` for it; train nothing."""
    vocab = Vocabulary.build(corpus, min_count=args.min_count, max_vocab_size=args.max_vocab_size)
    plan = model.estimate_memory(len(vocab))
    available = estimate.available_memory()
    fits = available is None or plan.peak <= available
    if args.json:
        print(json.dumps({"corpus_tokens": vocab.corpus_tokens, "vocabulary": len(vocab),
                          "estimate": plan.to_json(), "available": available, "fits": fits}))
        return 0
    print(f"corpus {args.corpus}: {vocab.corpus_tokens:,} tokens; vocabulary: {len(vocab):,} words "
          f"with count >= {args.min_count}")
    print("\n".join(plan.describe()))
    if available is not None:
        verdict = "fits" if fits else "does NOT fit: training would be refused"
        print(f"memory available: {estimate.format_bytes(available)} ({verdict})")
    print("dry run: nothing was trained or written")
    return 0
