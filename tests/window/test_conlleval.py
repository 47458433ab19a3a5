"""conlleval: entity-level P/R/F1 with the CoNLL script's chunk boundary rules (IOB1 and IOB2)."""

import pytest

from wordvec.tasks.conlleval import conlleval, end_of_chunk, start_of_chunk


def scores(gold, guess):
    return conlleval([s.split() for s in gold], [s.split() for s in guess])


def test_iob1_adjacent_same_type_entities_are_two_chunks():
    result = scores(["I-PER I-PER B-PER O"], ["I-PER I-PER B-PER O"])
    assert result["chunks_gold"] == 2 and result["chunks_correct"] == 2
    assert result["f1"] == 1.0


def test_merging_two_chunks_scores_nothing():
    result = scores(["I-PER I-PER B-PER O"], ["I-PER I-PER I-PER O"])
    assert (result["chunks_gold"], result["chunks_guessed"], result["chunks_correct"]) == (2, 1, 0)
    assert result["precision"] == 0.0 and result["recall"] == 0.0 and result["f1"] == 0.0
    assert result["accuracy"] == pytest.approx(3 / 4)


def test_iob1_and_iob2_spellings_of_the_same_chunks_agree():
    gold = ["I-ORG I-ORG O I-LOC B-LOC"]
    iob2 = ["B-ORG I-ORG O B-LOC B-LOC"]
    result = scores(gold, iob2)
    assert result["chunks_correct"] == 3 and result["f1"] == 1.0
    # ...though token accuracy compares the tags themselves
    assert result["accuracy"] == pytest.approx(3 / 5)


def test_type_change_and_i_after_o_start_chunks():
    assert start_of_chunk("O", "I", "", "ORG")
    assert start_of_chunk("I", "I", "PER", "LOC")
    assert not start_of_chunk("B", "I", "PER", "PER")
    assert end_of_chunk("I", "I", "PER", "LOC")
    assert end_of_chunk("I", "O", "PER", "")
    assert not end_of_chunk("B", "I", "PER", "PER")
    result = scores(["I-PER I-LOC"], ["I-PER I-PER"])
    assert (result["chunks_gold"], result["chunks_guessed"], result["chunks_correct"]) == (2, 1, 0)


def test_partial_overlap_and_wrong_type_are_errors():
    result = scores(["B-PER I-PER O B-LOC", "I-MISC O"], ["B-PER O O B-ORG", "I-MISC O"])
    # gold: PER(2 tokens), LOC, MISC; guessed: PER(1 token), ORG, MISC; only MISC matches.
    assert (result["chunks_gold"], result["chunks_guessed"], result["chunks_correct"]) == (3, 3, 1)
    assert result["precision"] == pytest.approx(1 / 3) and result["recall"] == pytest.approx(1 / 3)
    assert result["per_type"]["MISC"]["f1"] == 1.0
    assert result["per_type"]["ORG"] == {"precision": 0.0, "recall": 0.0, "f1": 0.0, "gold": 0, "guessed": 1, "correct": 0}


def test_sentence_boundary_closes_chunks():
    # The same entity type at the end of one sentence and the start of the next: two chunks.
    result = scores(["O I-PER", "I-PER O"], ["O I-PER", "I-PER O"])
    assert result["chunks_gold"] == 2 and result["chunks_correct"] == 2
    merged = conlleval([["O", "I-PER", "I-PER", "O"]], [["O", "I-PER", "I-PER", "O"]])
    assert merged["chunks_gold"] == 1


def test_precision_recall_f1_arithmetic():
    result = scores(["B-PER O B-LOC O B-ORG"], ["B-PER O B-LOC O O"])
    assert result["precision"] == 1.0 and result["recall"] == pytest.approx(2 / 3)
    assert result["f1"] == pytest.approx(2 * 1.0 * (2 / 3) / (1 + 2 / 3))


def test_length_mismatch_is_rejected():
    with pytest.raises(ValueError):
        conlleval([["O", "O"]], [["O"]])


def test_iobes_round_trip_keeps_the_chunks():
    from wordvec.tasks.conlleval import chunks, from_iobes, to_iobes

    iob1 = "I-PER I-PER B-PER O I-LOC O I-ORG I-ORG I-ORG I-MISC".split()
    assert chunks(iob1) == [("PER", 0, 2), ("PER", 2, 3), ("LOC", 4, 5), ("ORG", 6, 9), ("MISC", 9, 10)]
    iobes = to_iobes(iob1)
    assert iobes == "B-PER E-PER S-PER O S-LOC O B-ORG I-ORG E-ORG S-MISC".split()
    assert conlleval([iob1], [from_iobes(iobes)])["f1"] == 1.0
