"""`wordvec similar|analogy|evaluate|convert|info`: query, evaluate and convert word vectors.

VECTORS is any supported file, told by its first bytes and its name: `.bin` word2vec binary,
`.txt`/`.vec` word2vec text (a file without the "V D" header line is read as GloVe),
`.glove` headerless GloVe text, fastText `.bin`/`.ftz` (skipgram, cbow or supervised: its
word vectors), a directory or `.wv` path the native format, or a wordvec model (word2vec,
Doc2Vec, classifier, window classifier, language model: its word vectors).  `--glove`
forces GloVe text for a file with any other name.
"""

import argparse
import json
import os
import sys
import time

import numpy as np

from wordvec.cli import gate
from wordvec.cli.common import nonnegative_int, positive_int
from wordvec.data.corpus import open_binary
from wordvec.errors import WordvecError
from wordvec.io.formats import detect_format
from wordvec.io.history import format_table
from wordvec.io.outputs import check_vectors_output
from wordvec.models.doc2vec.model import Doc2Vec, is_doc2vec_model
from wordvec.models.saved import describe, load_keyed_vectors
from wordvec.models.static.files import is_static_model
from wordvec.models.static.query import nearest
from wordvec.report.page import display_word
from wordvec.vectors import ann
from wordvec.vectors.compact import CompactConfig, compact, compaction_report
from wordvec.vectors.evaluate import evaluate_all, format_report
from wordvec.vectors.files import save_vectors

FORMATS_HELP = """\
vector files (told by their first bytes, then their name):
  .bin        word2vec binary (the C tool's -binary 1; gensim binary=True)
  .bin .ftz   fastText model (skipgram, cbow, supervised): its word vectors
  .txt .vec   word2vec text with a "V D" header (headerless files are read as GloVe)
  .glove      GloVe text: one "word x1 ... xD" line per word, no header
  DIR, .wv    wordvec native: vectors.npy + vocab.json (memory-mappable, no pickle)
"""


def _parser(subparsers, name, description, examples):
    parser = subparsers.add_parser(
        name, description=description,
        epilog="examples:\n" + examples + "\n" + FORMATS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    return parser


def _vectors_argument(parser, name="vectors", metavar="VECTORS"):
    parser.add_argument(name, metavar=metavar, help="vector file or native directory")
    parser.add_argument("--glove", action="store_true", help=f"read {metavar} as headerless GloVe text")


def register(subparsers):
    similar = _parser(
        subparsers, "similar",
        "Print the words whose vectors are closest (cosine) to the mean of the unit vectors\n"
        "of the given WORDs, minus those of the --negative words (the word2vec `distance` tool).",
        "  wordvec similar vectors.bin king\n"
        "  wordvec similar vectors.bin king woman --negative man --topn 5\n"
        "  wordvec similar static-model a good movie --sentences reviews.txt   (a static sentence model)\n",
    )
    _vectors_argument(similar)
    similar.add_argument("words", nargs="*", metavar="WORD", help="query words (their vectors are added)")
    similar.add_argument("--docs", metavar="TAG", help="a Doc2Vec model (`wordvec doc2vec train`): the documents "
                         "nearest to document TAG (a line number, or a first-token tag)")
    similar.add_argument("--negative", nargs="+", default=[], metavar="WORD", help="words subtracted from the query")
    similar.add_argument("--sentences", metavar="FILE", help="a static model: rank the lines of FILE "
                         "(default: the model's tokens)")
    similar.add_argument("--topn", type=positive_int, default=10, metavar="N", help="how many neighbours (default 10)")
    similar.add_argument("--restrict-vocab", type=positive_int, metavar="N", help="search only the N most frequent words")
    similar.add_argument("--approximate", action="store_true",
                         help="ask the approximate index saved beside VECTORS (see `wordvec index`)")
    similar.set_defaults(run=run_similar)
    gate.mark(similar, inputs=["vectors"])

    index = _parser(
        subparsers, "index",
        "Build an HNSW index (usearch; pip install 'wordvec[ann]') of every vector and save it\n"
        "beside VECTORS as VECTORS.usearch (+ .usearch.json), for `wordvec similar --approximate`,\n"
        "most_similar(..., approximate=True) and `wordvec serve`.  Replaces an older index.",
        "  wordvec index GoogleNews-vectors-negative300.bin\n",
    )
    _vectors_argument(index)
    defaults = ann.AnnConfig()
    index.add_argument("--connectivity", type=positive_int, default=defaults.connectivity, metavar="M",
                       help=f"edges per node (default {defaults.connectivity})")
    index.add_argument("--expansion-add", type=positive_int, default=defaults.expansion_add, metavar="N",
                       help=f"candidates while building (default {defaults.expansion_add})")
    index.add_argument("--expansion-search", type=positive_int, default=defaults.expansion_search, metavar="N",
                       help=f"candidates while searching: recall against speed (default {defaults.expansion_search})")
    index.set_defaults(run=run_index)
    gate.mark(index, outputs=[gate.Output("vectors", _index_files)], inputs=["vectors"])

    analogy = _parser(
        subparsers, "analogy",
        "Answer the analogy A : B :: C : ? with 3CosAdd (cosine with B - A + C, the word2vec\n"
        "`word-analogy` tool) or 3CosMul (Levy & Goldberg 2014, less dominated by one term).\n"
        "The three question words are never answers.\n\n"
        "Order: A B C asks for B - A + C (word2vec's word-analogy and gensim's\n"
        "most_similar(positive=[B, C], negative=[A])).  fastText's `analogies` takes A - B + C:\n"
        "its users can keep their order with `wordvec fasttext analogies MODEL.bin`.",
        "  wordvec analogy vectors.bin man king woman          # king - man + woman -> queen\n"
        "  wordvec analogy vectors.bin paris france rome --method 3cosmul --topn 3\n",
    )
    _vectors_argument(analogy)
    for letter in "abc":
        analogy.add_argument(letter, metavar=letter.upper())
    analogy.add_argument("--method", choices=("3cosadd", "3cosmul"), default="3cosadd", help="default 3cosadd")
    analogy.add_argument("--topn", type=positive_int, default=5, metavar="N", help="how many answers (default 5)")
    analogy.add_argument("--restrict-vocab", type=positive_int, metavar="N", help="answer only from the N most frequent words")
    analogy.set_defaults(run=run_analogy)
    gate.mark(analogy, inputs=["vectors"])

    evaluate = _parser(
        subparsers, "evaluate",
        "Evaluate vectors on the Google analogy questions (per section, semantic, syntactic,\n"
        "total; only questions whose four words are among the --restrict-vocab most frequent\n"
        "words are answered) and on word-pair similarity sets (Spearman rho of cosine vs human\n"
        "scores).  Uses the sets bundled with wordvec (questions-words.txt, wordsim353.tsv,\n"
        "simlex999.txt) unless files are given.  Same rules and numbers as gensim's\n"
        "evaluate_word_analogies / evaluate_word_pairs.",
        "  wordvec evaluate vectors.bin\n"
        "  wordvec evaluate vectors.bin --json --method 3cosmul\n"
        "  wordvec evaluate vectors.txt --analogies my-questions.txt --similarity men.tsv --similarity rw.tsv\n",
    )
    _vectors_argument(evaluate)
    evaluate.add_argument("--json", action="store_true",
                          help='print one JSON object {"analogy": {...}, "similarity": {...}}')
    evaluate.add_argument("--analogies", metavar="FILE", help="questions in questions-words.txt format")
    evaluate.add_argument("--similarity", action="append", metavar="FILE",
                          help="word1<TAB>word2<TAB>score file (repeatable)")
    evaluate.add_argument("--restrict-vocab", type=positive_int, default=30000, metavar="N",
                          help="analogies use only the N most frequent words (default 30000, as word2vec.c's compute-accuracy; gensim's evaluate_word_analogies defaults to 300000)")
    evaluate.add_argument("--method", choices=("3cosadd", "3cosmul"), default="3cosadd", help="default 3cosadd")
    _compaction_arguments(evaluate, "also evaluate the vectors stored as float16 or int8 (per-row scale) and "
                                    "show both in one table: what the compaction costs")
    evaluate.set_defaults(run=run_evaluate)
    gate.mark(evaluate, inputs=["vectors", "analogies", "similarity"])

    convert = _parser(
        subparsers, "convert",
        "Read IN and write OUT, each in the format its name implies (see below).\n"
        "--binary or --text force word2vec binary/text output whatever OUT is called.",
        "  wordvec convert vectors.bin vectors.txt             # binary -> text\n"
        "  wordvec convert glove.6B.100d.txt glove.wv          # GloVe -> native (mmap-able)\n"
        "  wordvec convert vectors.wv out.vectors --binary\n",
    )
    _vectors_argument(convert, "input", "IN")
    convert.add_argument("output", metavar="OUT", help="file or directory to write (replaced atomically)")
    kind = convert.add_mutually_exclusive_group()
    kind.add_argument("--binary", action="store_true", help="write word2vec binary")
    kind.add_argument("--text", action="store_true", help="write word2vec text")
    _compaction_arguments(convert, "store the vectors as float16, or int8 with one scale per row (native OUT only)")
    convert.add_argument("--limit", type=positive_int, metavar="N", help="keep only the first N words")
    convert.set_defaults(run=run_convert)
    gate.mark(convert, outputs=[gate.Output("output", gate.file_or_directory)], inputs=["input"])

    info = _parser(
        subparsers, "info",
        "Show the number of words, the vector size, the format, the first words and\n"
        "statistics of the vector norms; for a saved wordvec model (word2vec, GloVe,\n"
        "PPMI-SVD, window classifier, language model) also its training history per epoch\n"
        "(loss, learning rate, words/s, seconds, elapsed).",
        "  wordvec info vectors.bin\n  wordvec info model.wv\n",
    )
    _vectors_argument(info)
    info.add_argument("--head", type=nonnegative_int, default=10, metavar="N", help="how many first words to show (default 10)")
    info.set_defaults(run=run_info)
    gate.mark(info, inputs=["vectors"])


def _index_files(vectors):
    """What `wordvec index VECTORS` writes: the index and its description beside VECTORS."""
    index = ann.index_path(vectors)
    return [(index, gate.FILE), (str(index)[: -len(ann.INDEX_SUFFIX)] + ann.META_SUFFIX, gate.FILE)]


def _compaction_arguments(parser, dtype_help):
    parser.add_argument("--dtype", choices=("float32", "float16", "int8"), help=dtype_help)
    fewer = parser.add_mutually_exclusive_group()
    fewer.add_argument("--dims", type=positive_int, metavar="N",
                       help="keep the first N dimensions (for Matryoshka-trained vectors)")
    fewer.add_argument("--pca", type=positive_int, metavar="N",
                       help="rotate onto the principal axes, then keep the first N dimensions")


def _compaction(args):
    """The CompactConfig the flags ask for, or None."""
    if args.dtype is None and args.dims is None and args.pca is None:
        return None
    return CompactConfig(dtype=args.dtype or "float32", dims=args.dims, pca=args.pca)


def _load(args, path=None):
    """The word vectors of any file or save wordvec reads (models, fastText files too)."""
    return load_keyed_vectors(path or args.vectors, glove=args.glove)


def _print_neighbours(pairs, args, kv):
    if not pairs:  # every candidate was a query word: say so rather than print nothing
        searched = f"the first {args.restrict_vocab} words" if args.restrict_vocab else f"all {len(kv)} words"
        raise WordvecError(f"no answer: {searched} of {args.vectors} are query words, which are never answers")
    pairs = [(str(word), score) for word, score in pairs]  # document tags may be ints
    width = max([len(word) for word, _ in pairs] + [4])
    for word, score in pairs:
        print(f"{word:<{width}}  {score:.4f}")


def run_similar(args):
    if args.docs is not None:
        return run_similar_documents(args)
    if is_static_model(args.vectors):  # a static sentence model: the words are one sentence
        if not args.words:
            raise WordvecError("similar needs a query sentence for a static model")
        _print_neighbours(nearest(args.vectors, " ".join(args.words), args.topn, args.sentences), args, None)
        return 0
    if not args.words:
        raise WordvecError("similar needs at least one WORD (or --docs TAG with a Doc2Vec model)")
    kv = _load(args)
    if args.approximate:
        ann.attach_index(kv, args.vectors)
    _print_neighbours(kv.most_similar(positive=args.words, negative=args.negative, topn=args.topn,
                                      restrict_vocab=args.restrict_vocab, approximate=args.approximate), args, kv)
    return 0


def run_similar_documents(args):
    """`similar MODEL --docs TAG`: the nearest documents of a Doc2Vec model, each with the
    first words of its line where the training file is still there."""
    if not is_doc2vec_model(args.vectors):
        raise WordvecError(f"--docs needs a Doc2Vec model (`wordvec doc2vec train`); {args.vectors} is not one")
    model = Doc2Vec.load(args.vectors)
    dv, by_line = model.dv, model.config.tags == "line"
    if args.docs not in dv and args.docs.isdigit() and int(args.docs) in dv:
        args.docs = int(args.docs)  # a line tag (gensim's int tags)
    if args.docs not in dv:
        numbering = f"lines counted from 0, so 0 to {len(dv) - 1}" if by_line else "tags are first tokens"
        raise WordvecError(f"no document tagged {args.docs!r} in {args.vectors} ({len(dv)} documents; {numbering})")
    pairs = dv.most_similar(positive=[args.docs], topn=args.topn, restrict_vocab=args.restrict_vocab)
    texts = document_openings(model.corpus_file, [args.docs] + [tag for tag, _ in pairs], by_line)
    where = f"of {model.corpus_file}" if texts else "of the training file"
    print(f"documents nearest to {'line' if by_line else 'tag'} {args.docs}"
          f"{': ' + texts[args.docs] if args.docs in texts else ''}  "
          f"({'lines' if by_line else 'tags: first tokens of the lines'} {where}"
          f"{', counted from 0' if by_line else ''})", file=sys.stderr)
    if not pairs:
        _print_neighbours(pairs, args, dv)
    width = max(len(str(tag)) for tag, _ in pairs)
    for tag, score in pairs:
        print(f"{tag:<{width}}  {score:.4f}  {texts.get(tag, '')}".rstrip())
    return 0


def document_openings(corpus_file, tags, by_line, words=8):
    """{tag: its line's first ``words`` words} for the documents ``tags`` name, read from the
    training file if it is still there (lines counted from 0, as the tags); {} otherwise."""
    if not corpus_file or not os.path.isfile(corpus_file):
        return {}
    wanted = {str(tag): tag for tag in tags}  # line tags are ints (gensim's), first-token tags text
    last = max((int(t) for t in wanted if t.isdigit()), default=-1) if by_line else None
    found = {}
    with open_binary(corpus_file) as handle:
        for number, raw in enumerate(handle):
            tokens = raw.decode("utf-8", errors="replace").split()
            tag = str(number) if by_line else (tokens[0] if tokens else "")
            if tag in wanted and wanted[tag] not in found:
                shown = tokens[0 if by_line else 1:][:words]
                found[wanted[tag]] = " ".join(shown) + (" ..." if len(tokens) > len(shown) + (0 if by_line else 1) else "")
            if len(found) == len(wanted) or (by_line and number >= last):
                break
    return found


def run_index(args):
    kv = _load(args)
    config = ann.AnnConfig(connectivity=args.connectivity, expansion_add=args.expansion_add,
                           expansion_search=args.expansion_search)
    started = time.perf_counter()
    path = ann.save_index(ann.build_index(kv, config), args.vectors)
    seconds = time.perf_counter() - started
    print(f"built an HNSW index of {len(kv):,} vectors x {kv.vector_size} dimensions (cosine; connectivity "
          f"{config.connectivity}, expansion {config.expansion_add}/{config.expansion_search}) in {seconds:.1f} s; "
          f"wrote {path} ({_size(path)}); `wordvec similar {args.vectors} WORD --approximate` uses it")
    return 0


def _size(path):
    size = os.path.getsize(path)
    return next(f"{size / 1024 ** i:.1f} {unit}" for i, unit in enumerate(("bytes", "KiB", "MiB", "GiB"))
                if size < 1024 ** (i + 1) or unit == "GiB").replace(".0 bytes", " bytes")


def run_analogy(args):
    kv = _load(args)
    answers = kv.analogy(args.a, args.b, args.c, topn=args.topn, method=args.method,
                         restrict_vocab=args.restrict_vocab)
    # the order, on stderr so that stdout stays "word score" lines (fastText's is A - B + C)
    if answers:
        print(f"{args.a} : {args.b} :: {args.c} : ?   ({args.b} - {args.a} + {args.c}, {args.method})",
              file=sys.stderr)
    _print_neighbours(answers, args, kv)
    return 0


def run_evaluate(args):
    kv = _load(args)
    result = evaluate_all(kv, restrict_vocab=args.restrict_vocab, method=args.method,
                          analogies=args.analogies, similarity=args.similarity)
    config = _compaction(args)
    if config is not None:
        small = evaluate_all(compact(kv, config), restrict_vocab=args.restrict_vocab, method=args.method,
                             analogies=args.analogies, similarity=args.similarity)
        if args.json:
            print(json.dumps({"before": result, "after": small, "compaction": vars(config)}))
        else:
            print(f"{args.vectors}: {len(kv)} words x {kv.vector_size} dimensions, as stored and compacted\n")
            print(compaction_report(result, small, config))
        return 0
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{args.vectors}: {len(kv)} words x {kv.vector_size} dimensions; analogies by {args.method} "
              f"over the {min(args.restrict_vocab, len(kv))} most frequent words\n")
        print(format_report(result))
    return 0


def run_convert(args):
    fmt = "binary" if args.binary else "text" if args.text else None
    check_vectors_output(args.output, inputs=[args.input], fmt=fmt)
    config = _compaction(args)
    if config is not None and config.dtype != "float32" and (fmt or detect_format(args.output)) != "native":
        raise WordvecError(f"--dtype {config.dtype} needs a native OUT (a directory or .wv name): "
                           f"word2vec files hold float32 numbers, so {args.output} would not be smaller")
    kv = load_keyed_vectors(args.input, glove=args.glove, limit=args.limit)
    if config is not None:
        kv = compact(kv, config)
    save_vectors(kv, args.output, fmt=fmt)
    print(f"wrote {len(kv)} vectors of size {kv.vector_size} to {args.output}")
    return 0


def run_info(args):
    saved = describe(args.vectors, glove=args.glove)
    kv = load_keyed_vectors(args.vectors, glove=args.glove, saved=saved)
    norms = kv.norms
    print(f"file        {args.vectors}")
    print(f"format      {saved.format}")
    if saved.is_model:
        print(f"model       {saved.title}")
    print(f"words       {len(kv)}")
    print(f"dimensions  {kv.vector_size}")
    print(f"counts      {'yes' if kv.counts is not None else 'no'}")
    if len(kv):
        print(f"norms       min {norms.min():.4f}  mean {norms.mean():.4f}  median {np.median(norms):.4f}  "
              f"max {norms.max():.4f}  zero vectors {int((norms == 0).sum())}")
        print(f"first words {' '.join(display_word(w) for w in kv.index_to_key[: args.head])}")
    for key, value in saved.corpus.items():
        print(f"corpus      {key}: {value}")
    history = format_table(saved.history)
    if history:
        print("\ntraining history")
        print("\n".join("  " + line for line in history))
    return 0
