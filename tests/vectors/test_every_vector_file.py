"""Every command that reads vectors reads every vector file wordvec knows, told by its bytes:
word2vec .bin/.txt, GloVe, native, fastText skipgram .bin (written by `wordvec fasttext
skipgram`), a supervised .bin and its .ftz, Doc2Vec and classifier saves.  A file that
holds no vectors is refused in one sentence naming what it looks like, exit 2, never its
bytes."""

import gzip
import random

import numpy as np
import pytest

from wordvec.cli import main
from wordvec.data import synthetic
from wordvec.io import sniff
from wordvec.models.word2vec.fasttext import load_facebook_vectors
from wordvec.vectors.files import load_vectors
from wordvec.vectors.subword import SubwordKeyedVectors

COMMANDS = {
    "similar": lambda f, tmp: ["similar", f, "the", "--topn", "2"],
    "analogy": lambda f, tmp: ["analogy", f, "the", "of", "a", "--topn", "2"],
    "info": lambda f, tmp: ["info", f],
    "evaluate": lambda f, tmp: ["evaluate", f, "--json"],
    "convert": lambda f, tmp: ["convert", f, tmp / "out.txt"],
    "report": lambda f, tmp: ["report", f, "-o", tmp / "report.html", "--no-evaluate", "--top", "20"],
    "embed": lambda f, tmp: ["embed", f, tmp / "sentences.txt", "-o", tmp / "out.npy"],
    "serve": lambda f, tmp: ["serve", f, "--port", "0"],
    "index": lambda f, tmp: ["index", f],
}
VECTOR_FILES = ["w2v.bin", "w2v.txt", "glove.glove", "w2v.wv", "ftsg.bin", "ftsg-renamed.vec", "clf.bin",
                "clf.ftz", "clf.wv", "docs.d2v"]
NOT_VECTORS = {"corpus.txt": "plain text: a corpus?", "corpus.txt.gz": "a gzip-compressed file holding plain text",
               "page.bin": "an HTML page", "random.bin": "binary data of unknown kind", "labelled.txt": "labelled text"}


def cli(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("kinds")
    synthetic.write_corpus(d / "corpus.txt", tokens=20_000, seed=0)
    rng = random.Random(0)
    words = "good bad great awful fine poor nice terrible".split()
    with open(d / "labelled.txt", "w") as out:
        for _ in range(300):
            label = rng.randrange(14)
            out.write(f"__label__genre_{label:02d} " + " ".join(rng.choice(words) + str(label % 3) for _ in range(8))
                      + " the a of\n")
    small = ["--vector-size", "8", "--epochs", "1", "--workers", "1"]
    steps = [
        ["fasttext", "skipgram", "-input", d / "corpus.txt", "-output", d / "ftsg", "-thread", "1", "-epoch", "1",
         "-dim", "8", "-minCount", "2", "-bucket", "5000"],
        ["classify", "train", d / "labelled.txt", "-o", d / "clf.bin", "--word-ngrams", "2", "--bucket", "1000",
         "--no-progress", *small],
        ["classify", "quantize", d / "clf.bin", "-o", d / "clf.ftz"],
        ["classify", "train", d / "labelled.txt", "-o", d / "clf.wv", "--no-progress", *small],
        ["train", d / "corpus.txt", "-o", d / "w2v.bin", "--min-count", "2", "--no-eval", "--no-progress", *small],
        ["convert", d / "w2v.bin", d / "w2v.txt"], ["convert", d / "w2v.bin", d / "w2v.wv"],
        ["convert", d / "w2v.bin", d / "glove.glove"],
        ["doc2vec", "train", d / "corpus.txt", "-o", d / "docs.d2v", "--min-count", "2", *small],
    ]
    for argv in steps:
        assert main([str(a) for a in argv]) == 0, argv
    (d / "ftsg-renamed.vec").write_bytes((d / "ftsg.bin").read_bytes())  # told by its bytes, not its name
    (d / "corpus.txt.gz").write_bytes(gzip.compress((d / "corpus.txt").read_bytes()))
    (d / "page.bin").write_text("<!DOCTYPE html>\n<html><head><title>vectors</title></head><body>x</body></html>\n")
    (d / "random.bin").write_bytes(np.random.default_rng(0).bytes(5000))
    (d / "sentences.txt").write_text("the good of\na nice\n")
    return d


@pytest.fixture
def no_server(monkeypatch):
    """`wordvec serve` loads its vectors and starts a server that returns at once."""
    served = []

    class Server:
        server_address = ("127.0.0.1", 0)

        def serve_forever(self):
            pass

        def server_close(self):
            pass

    def make_server(kv, host, port, source=None):
        served.append(kv)
        return Server()

    monkeypatch.setattr("wordvec.cli.serve.make_server", make_server)
    return served


@pytest.mark.parametrize("name", VECTOR_FILES)
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_reads_every_vector_file(files, tmp_path, capsys, no_server, command, name):
    path = tmp_path / name
    path.symlink_to(files / name)  # `index` writes beside its input
    (tmp_path / "sentences.txt").write_text("the good of\na nice\n")
    status, out, err = cli(capsys, *COMMANDS[command](path, tmp_path))
    if command == "index" and status == 2 and "usearch" in err:
        pytest.skip("the ann extra (usearch) is not installed")
    assert status == 0, err
    assert "Traceback" not in err and "\\x" not in err
    if command == "serve":
        assert len(no_server) == 1 and len(no_server[0]) > 0
    if command == "embed":
        assert np.load(tmp_path / "out.npy").shape[0] == 2


@pytest.mark.parametrize("name", sorted(NOT_VECTORS))
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_file_that_is_not_vectors_is_named_for_what_it_looks_like(files, tmp_path, capsys, no_server, command,
                                                                     name):
    (tmp_path / "sentences.txt").write_text("the good of\n")
    status, out, err = cli(capsys, *COMMANDS[command](files / name, tmp_path))
    lines = err.strip().splitlines()
    assert status == 2 and len(lines) == 1, err
    assert lines[0] == f"wordvec: error: {files / name} is not a vector file: it looks like " \
                       f"{sniff.describe(files / name)}"
    assert NOT_VECTORS[name] in lines[0] and "\\x" not in lines[0] and "<html" not in lines[0].lower()
    assert not (tmp_path / "out.txt").exists() and not (tmp_path / "out.npy").exists()


def test_load_vectors_reads_fasttext_files_by_their_bytes(files):
    own = load_vectors(files / "ftsg-renamed.vec")
    facebook = load_facebook_vectors(files / "ftsg.bin")
    assert isinstance(own, SubwordKeyedVectors)
    assert own.index_to_key == facebook.index_to_key and np.array_equal(own.vectors, facebook.vectors)
    assert np.array_equal(own["unseenwordzz"], facebook["unseenwordzz"])  # OOV through n-grams
    supervised, quantized = load_vectors(files / "clf.bin"), load_vectors(files / "clf.ftz")
    assert supervised.index_to_key == quantized.index_to_key
    assert not any(w.startswith("__label__") for w in supervised.index_to_key)
    assert supervised.vector_size == quantized.vector_size == 8


def test_info_names_the_fasttext_model_and_only_what_its_header_holds(files, capsys):
    status, out, _ = cli(capsys, "info", files / "clf.bin")
    assert status == 0 and "fastText supervised model file" in out and "classifier" in out


@pytest.mark.parametrize("head, said", [
    (b"<html><body>", "an HTML page"), (b"\x93NUMPY\x01\x00", "a NumPy array (.npy)"),
    (b"PK\x03\x04rest", "a ZIP archive"), (b"%PDF-1.4", "a PDF document"), (b'{"a": 1}', "JSON text"),
    (b"the cat sat on the mat\n", "plain text: a corpus?"), (b"the 120\ncat 7\n", "a vocabulary?"),
    (b"__label__a some words\n", "labelled text"), (bytes(range(256)) * 4, "binary data of unknown kind"),
])
def test_descriptions(head, said):
    assert sniff.identify_head(head) is None
    assert said in sniff.describe_head(head)


@pytest.mark.parametrize("head, kind", [(b"3 2\nthe 0.1 0.2\n", "header"), (b"the 0.1 -2e-3 4\n", "rows"),
                                        (b"\xba\x16\x4f\x2f\x0c\x00\x00\x00", "fasttext"),
                                        (b"the 0.1 0.2 x\n", "rows")])  # a damaged row: its reader says where
def test_vector_files_are_told_from_their_first_bytes(head, kind):
    assert sniff.identify_head(head) == kind


@pytest.mark.parametrize("head", [b"", b"word\n", b"\n\n"])
def test_too_little_to_tell_leaves_it_to_the_name(head):
    assert sniff.identify_head(head) == "unknown"
    assert sniff.describe_head(head) in ("an empty file", "plain text: a corpus?", "an empty text file")
