"""Text -> token-id streams for the language models, at character or word level.

Both levels read a file line by line; each line is a sequence followed by an end
symbol, and a stream starts with the end symbol too, so the first token of every line
is predicted from "start of line" and the end of every line is predicted as well:

    stream = [END, line 1 tokens..., END, line 2 tokens..., END, ...]

* char level: tokens are characters, END is "\\n".  The vocabulary holds only the
  characters seen in training; text with other characters is refused (a character
  model has no probability for a symbol it never saw).
* word level: tokens are whitespace-separated words, END is "<eos>"; words outside the
  vocabulary (rarer than ``min_count`` or beyond ``max_size``) become "<unk>", both
  in training and in evaluation.  Word counting uses :class:`wordvec.data.vocab.Vocabulary`.
"""

import collections
import lzma
import os

import numpy as np

from wordvec.data.corpus import open_text, split_tokens
from wordvec.errors import FormatError, VocabularyError, WordvecError
from wordvec.data.vocab import Vocabulary

LEVELS = ("char", "word")
END_CHAR, END_WORD, UNK = "\n", "<eos>", "<unk>"


def read_lines(path, lowercase=False, max_lines=None):
    """The lines of a plain, .gz, .bz2 or .xz UTF-8 file, without their line ends."""
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise WordvecError(f"file not found: {path}")
    lines = []
    try:
        with open_text(path) as handle:
            for number, line in enumerate(handle, 1):
                if max_lines is not None and number > max_lines:
                    break
                line = line.rstrip("\r\n")
                lines.append(line.lower() if lowercase else line)
    except UnicodeDecodeError:
        # (decoding runs ahead in blocks, so the line number would not be exact)
        raise FormatError(path, None, "is not valid UTF-8 text") from None
    except (OSError, EOFError, lzma.LZMAError) as error:
        raise WordvecError(f"cannot read {path}: {error}") from None
    return lines


def require_tokens(lines, level, path):
    """Refuse a text with no token at all (an empty file, or only blank lines)."""
    if not any(line if level == "char" else split_tokens(line) for line in lines):
        raise WordvecError(f"{os.fspath(path)} has no tokens: a sequence of length 0 has nothing to predict")


class LMVocab:
    """Token list of a language model; id = position.  ``end`` and ``unk`` are ids."""

    def __init__(self, level, tokens, lowercase=False):
        if level not in LEVELS:
            raise WordvecError(f"unknown level {level!r}; choose char or word")
        self.level, self.tokens, self.lowercase = level, list(tokens), bool(lowercase)
        self.index = {t: i for i, t in enumerate(self.tokens)}
        self.end = self.index[END_CHAR if level == "char" else END_WORD]
        self.unk = self.index.get(UNK)

    def __len__(self):
        return len(self.tokens)

    @classmethod
    def build(cls, lines, level, lowercase=False, min_count=1, max_size=None):
        """From training lines: chars by descending count; words via ``Vocabulary``."""
        if level == "char":
            counts = collections.Counter()
            for line in lines:
                counts.update(line)
            counts.pop(END_CHAR, None)
            tokens = [END_CHAR] + sorted(counts, key=lambda ch: (-counts[ch], ch))
        elif level == "word":
            counts = collections.Counter()
            for line in lines:
                counts.update(split_tokens(line))
            for special in (END_WORD, UNK):
                counts.pop(special, None)
            words = Vocabulary.from_counts(counts, min_count=min_count).words if counts else []
            tokens = [END_WORD, UNK] + words[: None if max_size is None else max(max_size - 2, 0)]
        else:
            raise WordvecError(f"unknown level {level!r}; choose char or word")
        if len(tokens) <= (1 if level == "char" else 2):
            raise WordvecError("the training text has no tokens: the vocabulary would be empty")
        return cls(level, tokens, lowercase)

    def encode(self, lines, source="the text"):
        """Lines -> int64 stream [END, tokens of line 1, END, ...]; see the module docstring."""
        end, ids = self.end, [self.end]
        if self.level == "char":
            index = self.index
            unseen = collections.Counter()
            for line in lines:
                for ch in line:
                    i = index.get(ch)
                    if i is None:
                        unseen[ch] += 1
                    else:
                        ids.append(i)
                ids.append(end)
            if unseen:
                shown = ", ".join(repr(ch) for ch, _ in unseen.most_common(5))
                raise VocabularyError(f"{source} contains {sum(unseen.values())} characters this "
                                      f"character model never saw in training ({shown})")
        else:
            get, unk = self.index.get, self.unk
            for line in lines:
                ids.extend(get(word, unk) for word in split_tokens(line))
                ids.append(end)
        return np.asarray(ids, dtype=np.int64)

    def encode_file(self, path, max_lines=None):
        """Read and encode a file; refuse one with no tokens at all."""
        lines = read_lines(path, self.lowercase, max_lines)
        require_tokens(lines, self.level, path)
        return self.encode(lines, source=os.fspath(path))

    def decode(self, ids):
        """Token ids -> text (characters joined, or words joined by spaces)."""
        tokens = [self.tokens[i] for i in ids]
        return "".join(tokens) if self.level == "char" else " ".join(tokens)

    def unknown_rate(self, stream):
        """Fraction of tokens (line ends excluded) mapped to <unk>; 0 for char level."""
        if self.unk is None:
            return 0.0
        words = stream[stream != self.end]
        return float(np.mean(words == self.unk)) if words.size else 0.0

    def to_json(self):
        return {"level": self.level, "lowercase": self.lowercase, "tokens": self.tokens}

    @classmethod
    def from_json(cls, obj):
        return cls(obj["level"], obj["tokens"], obj.get("lowercase", False))
