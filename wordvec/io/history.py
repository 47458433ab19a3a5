"""Training history: one JSON record per epoch, saved in every native model directory.

Each model keeps ``model.history`` (a list of dicts) and saves it in its JSON
description (``model.json``, or ``config.json`` for the window classifier).  Models keep
the names of their field for their own figures (word2vec's ``alpha`` as in gensim, the
language models' ``train_loss`` / ``lr`` / ``tokens_per_sec``), and every record also
holds ``elapsed_seconds`` (wall time since training began, continued across resumed
runs).  :func:`normalise` gives the common view that ``wordvec info`` and
``wordvec report`` show, with the same keys for every model:

    epoch            1-based epoch number over the model's life
    loss             mean training loss of the epoch (the model's own objective)
    learning_rate    step size at the end of the epoch (word2vec: the linearly decayed
                     alpha; GloVe and the window classifier: the AdaGrad base rate)
    words_per_sec    corpus tokens per second (language models: their tokens, which
                     are characters for a character model; GloVe: corpus tokens whose
                     counts one epoch covers, per second)
    seconds          wall time of the epoch
    elapsed_seconds  wall time since training began

A key that does not apply to a model (PPMI-SVD has no loss and no learning rate) is None.
"""

# common key -> the names models store it under, in order of preference
ALIASES = {
    "epoch": ("epoch",),
    "loss": ("loss", "train_loss"),
    "learning_rate": ("learning_rate", "alpha", "lr"),
    "words_per_sec": ("words_per_sec", "tokens_per_sec"),
    "seconds": ("seconds",),
    "elapsed_seconds": ("elapsed_seconds",),
}
COMMON_KEYS = tuple(ALIASES)


def append_epoch(history, record):
    """Append ``record`` to ``history`` after setting its ``elapsed_seconds``."""
    previous = history[-1].get("elapsed_seconds") if history else 0.0
    if previous is None:  # an older save without it: count from the recorded epochs
        previous = sum(r.get("seconds") or 0.0 for r in history)
    record["elapsed_seconds"] = float(previous) + float(record.get("seconds") or 0.0)
    history.append(record)
    return record


def normalise(history):
    """The records of ``history`` with the :data:`COMMON_KEYS` (None where absent), in order.

    Works on records written before ``elapsed_seconds`` existed (it is summed from
    ``seconds``) and ignores entries that are not dicts.
    """
    rows, elapsed = [], 0.0
    for index, record in enumerate(r for r in history if isinstance(r, dict)):
        row = {key: _first(record, names) for key, names in ALIASES.items()}
        if row["epoch"] is None:
            row["epoch"] = index + 1
        if row["elapsed_seconds"] is None and row["seconds"] is not None:
            row["elapsed_seconds"] = elapsed + row["seconds"]
        elapsed = row["elapsed_seconds"] if row["elapsed_seconds"] is not None else elapsed
        rows.append(row)
    return rows


def _first(record, names):
    for name in names:
        value = record.get(name)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return value
    return None


def format_table(history):
    """The normalised history as aligned text lines (for ``wordvec info``)."""
    rows = normalise(history)
    if not rows:
        return []
    lines = [f"{'epoch':>5}  {'loss':>10}  {'learn rate':>10}  {'words/s':>10}  {'seconds':>8}  {'elapsed':>8}"]
    for row in rows:
        lines.append(f"{row['epoch']:>5}  {_number(row['loss'], '.5g'):>10}  {_number(row['learning_rate'], '.4g'):>10}  "
                     f"{_number(row['words_per_sec'], ',.0f'):>10}  {_number(row['seconds'], '.1f'):>8}  "
                     f"{_number(row['elapsed_seconds'], '.1f'):>8}")
    return lines


def _number(value, spec):
    return "-" if value is None else format(value, spec)
