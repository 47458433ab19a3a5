"""Damaged static model directories and teachers: one sentence, exit status 2, the files
left as they were (``tests/hostile/harness``), for the Python API and the commands."""

import json
import shutil
import struct

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hostile.harness import assert_clean_failure, digest, run_cli, run_main
from wordvec.errors import WordvecError
from wordvec.models.static.model import StaticModel


def _truncate(path):
    path.write_bytes(path.read_bytes()[:-17])


def _huge_header(path):
    path.write_bytes(struct.pack("<Q", 1 << 40) + path.read_bytes()[8:])


def _garbage(path):
    path.write_bytes(b"\x00\xff" * 50)


def _header_json(path):
    data = path.read_bytes()
    size = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + size])
    return data, size, header


def _renamed_tensor(path):
    data, size, header = _header_json(path)
    header["other"] = header.pop("embeddings")
    _write_header(path, data, size, header)


def _one_row_short(path):
    data, size, header = _header_json(path)
    rows, dims = header["embeddings"]["shape"]
    start, _ = header["embeddings"]["data_offsets"]
    header["embeddings"]["shape"] = [rows - 1, dims]
    header["embeddings"]["data_offsets"] = [start, start + (rows - 1) * dims * 4]
    _write_header(path, data, size, header)


def _nan(path):
    data, size, header = _header_json(path)
    start = 8 + size + header["embeddings"]["data_offsets"][0]
    path.write_bytes(data[:start] + np.float32("nan").tobytes() + data[start + 4:])


def _write_header(path, data, size, header):
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    path.write_bytes(struct.pack("<Q", len(text)) + text + data[8 + size:])


DAMAGE = {
    "model.safetensors": {"truncated": _truncate, "huge header": _huge_header, "garbage": _garbage,
                          "no embeddings": _renamed_tensor, "rows short": _one_row_short, "nan": _nan},
    "tokenizer.json": {"garbage": _garbage, "truncated": _truncate,
                       "not a tokenizer": lambda p: p.write_text('{"version": "1.0"}')},
    "config.json": {"garbage": _garbage, "list": lambda p: p.write_text("[1, 2]"),
                    "normalize text": lambda p: p.write_text('{"normalize": "yes"}'),
                    "max_length zero": lambda p: p.write_text('{"max_length": 0}'),
                    "history not a list": lambda p: p.write_text('{"history": {"epoch": 1}}')},
}
CASES = [(file, name) for file, kinds in DAMAGE.items() for name in kinds]


@pytest.fixture(scope="module")
def saved(distilled, tmp_path_factory):
    path = tmp_path_factory.mktemp("static") / "model"
    distilled.save(path)
    return path


@pytest.mark.parametrize("file,name", CASES)
def test_a_damaged_model_is_refused_in_one_sentence(saved, tmp_path, file, name):
    damaged = tmp_path / "model"
    shutil.copytree(saved, damaged)
    DAMAGE[file][name](damaged / file)
    before = digest(damaged)
    with pytest.raises(WordvecError):
        StaticModel.load(damaged)
    (tmp_path / "s.txt").write_text("the movie\n")
    result = run_main("embed", damaged, tmp_path / "s.txt", "-o", tmp_path / "out.npy")
    assert result.returncode == 2
    assert_clean_failure(result, file)
    assert digest(damaged) == before and not (tmp_path / "out.npy").exists()
    for argv in (("report", damaged, "-o", tmp_path / "page.html"), ("serve", damaged, "--port", "0")):
        result = run_main(*argv)
        assert result.returncode == 2
        assert_clean_failure(result, file)
    assert digest(damaged) == before and not (tmp_path / "page.html").exists()


@pytest.mark.parametrize("missing", ["tokenizer.json", "model.safetensors"])
def test_a_static_model_missing_a_file_is_named_as_such(saved, tmp_path, missing):
    damaged = tmp_path / "model"
    shutil.copytree(saved, damaged)
    (damaged / missing).unlink()
    for argv in (("report", damaged, "-o", tmp_path / "page.html"), ("serve", damaged, "--port", "0"),
                 ("similar", damaged, "the")):
        result = run_main(*argv)
        assert result.returncode == 2
        assert_clean_failure(result, "static model", missing)


def test_a_damaged_model_fails_cleanly_in_a_real_process(saved, tmp_path):
    damaged = tmp_path / "model"
    shutil.copytree(saved, damaged)
    _huge_header(damaged / "model.safetensors")
    result = run_cli("similar", damaged, "the", "movie")
    assert result.returncode == 2
    assert_clean_failure(result, "model.safetensors")


@pytest.mark.parametrize("file", ["model.safetensors", "tokenizer.json", "config.json"])
def test_a_damaged_teacher_is_refused(tiny_teacher, tmp_path, file):
    teacher = tmp_path / "teacher"
    shutil.copytree(tiny_teacher, teacher)
    _garbage(teacher / file)
    result = run_main("static", "distill", teacher, "-o", tmp_path / "out")
    assert result.returncode == 2
    assert_clean_failure(result, file)
    assert not (tmp_path / "out").exists()


def test_static_commands_refuse_bad_arguments(saved, tmp_path):
    (tmp_path / "p.tsv").write_text("only one field\n")
    assert_clean_failure(run_main("static", "pairs", saved, tmp_path / "p.tsv", "-o", tmp_path / "m3"), "line 1")
    assert_clean_failure(run_main("static", "train", saved, tmp_path / "none.txt", "-o", tmp_path / "m2",
                                  "--teacher", saved), "none.txt")
    assert_clean_failure(run_main("static", "distill", saved, "-o", saved), "")
    (tmp_path / "file").write_text("x")
    assert_clean_failure(run_main("static", "pairs", saved, tmp_path / "p.tsv", "-o", tmp_path / "file"), "file")


@settings(max_examples=40, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=300), st.integers(min_value=0, max_value=2))
def test_fuzzed_model_files_never_crash(saved, tmp_path_factory, payload, which):
    damaged = tmp_path_factory.mktemp("fuzz") / "model"
    shutil.copytree(saved, damaged)
    target = damaged / ("model.safetensors", "tokenizer.json", "config.json")[which]
    original = target.read_bytes()
    target.write_bytes(original[:len(payload)] + payload if which else payload + original[len(payload):])
    try:
        model = StaticModel.load(damaged)
    except WordvecError:
        return
    assert model.encode(["the movie"]).shape == (1, model.dim)
