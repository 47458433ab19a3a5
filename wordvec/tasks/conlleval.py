"""Entity-level precision, recall and F1, computed as the CoNLL shared tasks' `conlleval` does.

The rules follow the Perl script (version 2004-01-26) line by line, so scores match it
exactly, including on the inconsistent tag sequences a token classifier produces:

* a tag is split at its first hyphen into a prefix (B, I, E, S, O, …) and a type;
* a chunk *starts* at B after anything, at I or E after O or after an E, at a change of
  type (for any tag other than O), and at the bracket tags "[" and "]";
* a chunk *ends* before B or O after B/I, before E/I/O after E, at a change of type after
  any tag other than O, and after "[" or "]";
* sentence boundaries act as O tags; a guessed chunk is correct when it starts and ends
  exactly where a gold chunk does, with the same type.

So IOB1 ("I-PER I-PER B-PER": two chunks) and IOB2 ("B-PER I-PER B-PER") are both read
correctly, and an "I-ORG" after "O" starts a chunk.
"""

from collections import Counter


def split_tag(tag):
    prefix, hyphen, kind = tag.partition("-")
    return (prefix, kind) if hyphen else (tag, "")


def end_of_chunk(prev_tag, tag, prev_type, kind):
    """True if the chunk that holds the previous token ends before this token."""
    end = (prev_tag, tag) in {("B", "B"), ("B", "O"), ("I", "B"), ("I", "O"), ("E", "E"), ("E", "I"), ("E", "O")}
    if prev_tag not in ("O", ".") and prev_type != kind:
        end = True
    if prev_tag in ("]", "["):
        end = True
    return end


def start_of_chunk(prev_tag, tag, prev_type, kind):
    """True if a chunk starts at this token."""
    start = (prev_tag, tag) in {("B", "B"), ("I", "B"), ("O", "B"), ("O", "I"), ("E", "E"), ("E", "I"), ("O", "E")}
    if tag not in ("O", ".") and prev_type != kind:
        start = True
    if tag in ("[", "]"):
        start = True
    return start


def conlleval(gold_sequences, guessed_sequences):
    """Scores of guessed tag sequences against gold ones (lists of tag lists, sentence by sentence).

    Returns {"precision", "recall", "f1", "accuracy" (token level), "chunks_gold",
    "chunks_guessed", "chunks_correct", "per_type": {type: {"precision", "recall", "f1",
    "gold", "guessed", "correct"}}}. Values are fractions in [0, 1] (the script prints %).
    """
    correct_chunk, found_gold, found_guessed = Counter(), Counter(), Counter()
    correct_tags = tokens = 0
    for gold_seq, guess_seq in zip(gold_sequences, guessed_sequences, strict=True):
        if len(gold_seq) != len(guess_seq):
            raise ValueError("a gold and a guessed sentence differ in length")
        last_gold, last_guess, last_gold_type, last_guess_type = "O", "O", "", ""
        in_correct = False
        # The trailing ("O", "O") is the sentence boundary, which closes every open chunk.
        for gold_tag, guess_tag, boundary in [(g, p, False) for g, p in zip(gold_seq, guess_seq)] + [("O", "O", True)]:
            gold, gold_type = split_tag(gold_tag)
            guess, guess_type = split_tag(guess_tag)
            gold_ends = end_of_chunk(last_gold, gold, last_gold_type, gold_type)
            guess_ends = end_of_chunk(last_guess, guess, last_guess_type, guess_type)
            gold_starts = start_of_chunk(last_gold, gold, last_gold_type, gold_type)
            guess_starts = start_of_chunk(last_guess, guess, last_guess_type, guess_type)
            if in_correct:
                if gold_ends and guess_ends and last_guess_type == last_gold_type:
                    in_correct = False
                    correct_chunk[last_gold_type] += 1
                elif gold_ends != guess_ends or guess_type != gold_type:
                    in_correct = False
            if gold_starts and guess_starts and guess_type == gold_type:
                in_correct = True
            if gold_starts:
                found_gold[gold_type] += 1
            if guess_starts:
                found_guessed[guess_type] += 1
            if not boundary:
                correct_tags += gold == guess and gold_type == guess_type
                tokens += 1
            last_gold, last_guess, last_gold_type, last_guess_type = gold, guess, gold_type, guess_type
        if in_correct:  # cannot happen after the boundary, kept to mirror the script
            correct_chunk[last_gold_type] += 1

    def prf(correct, gold, guessed):
        precision = correct / guessed if guessed else 0.0
        recall = correct / gold if gold else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        return precision, recall, f1

    precision, recall, f1 = prf(sum(correct_chunk.values()), sum(found_gold.values()), sum(found_guessed.values()))
    per_type = {}
    for kind in sorted(set(found_gold) | set(found_guessed)):
        p, r, f = prf(correct_chunk[kind], found_gold[kind], found_guessed[kind])
        per_type[kind] = {"precision": p, "recall": r, "f1": f, "gold": found_gold[kind],
                          "guessed": found_guessed[kind], "correct": correct_chunk[kind]}
    return {"precision": precision, "recall": recall, "f1": f1,
            "accuracy": correct_tags / tokens if tokens else 0.0,
            "chunks_gold": sum(found_gold.values()), "chunks_guessed": sum(found_guessed.values()),
            "chunks_correct": sum(correct_chunk.values()), "per_type": per_type}


def chunks(tags):
    """(type, start, end) of every chunk in one sentence's tags, end exclusive, by the rules above."""
    found, last, last_type, start = [], "O", "", None
    for i, tag in enumerate(list(tags) + ["O"]):
        prefix, kind = split_tag(tag)
        if start is not None and end_of_chunk(last, prefix, last_type, kind):
            found.append((last_type, start, i))
            start = None
        if start_of_chunk(last, prefix, last_type, kind):
            start = i
        last, last_type = prefix, kind
    return found


def to_iobes(tags):
    """The same chunks spelled S-X (single token) or B-X I-X … E-X; other tokens O."""
    out = ["O"] * len(tags)
    for kind, start, end in chunks(tags):
        if end - start == 1:
            out[start] = f"S-{kind}"
        else:
            out[start : end] = [f"B-{kind}"] + [f"I-{kind}"] * (end - start - 2) + [f"E-{kind}"]
    return out


def from_iobes(tags):
    """IOBES (possibly inconsistent, as a token classifier predicts it) → IOB2 for conlleval:
    S-X → B-X and E-X → I-X; a chunk then starts at every B and at an I after O or another type."""
    return [("B" + tag[1:]) if tag.startswith("S-") else ("I" + tag[1:]) if tag.startswith("E-") else tag
            for tag in tags]
