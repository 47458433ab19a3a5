"""What ``wordvec train`` does with a trained model: write it, then print what it learned.

Shared by the local commands (``wordvec.cli.train.command``, ``wordvec.cli.train.count``) and the
Ray path (``wordvec.cli.ray_run``), so that none of them imports another command.
"""

import json
import logging

from wordvec.vectors.evaluate import evaluate_all, format_report
from wordvec.vectors.files import save_vectors

log = logging.getLogger(__name__)


def save_trained(model, output, output_format):
    """Write a trained model: the full model for a native path, else just its vectors.
    ``output_format`` is what ``check_vectors_output`` detected before training."""
    if output_format == "native":
        model.save(output)
    else:
        save_vectors(model.wv, output, fmt=output_format)
    log.info("wrote %d vectors of size %d to %s", len(model.wv), model.wv.vector_size, output)


def report(kv, args, history=(), estimate=None):
    """Print the evaluation summary (a table, or JSON with --json)."""
    evaluation = None
    if not args.no_eval:
        evaluation = evaluate_all(kv)
        if not args.json:
            print(format_report(evaluation))
    if args.json:
        print(json.dumps({"output": str(args.output), "words": len(kv), "vector_size": kv.vector_size,
                          "history": list(history), "evaluation": evaluation,
                          "memory_estimate": estimate.to_json() if estimate is not None else None}))
    return 0
