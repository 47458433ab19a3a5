"""A tiny sentence-transformers teacher made on the fly: a randomly initialised BERT encoder
(HF ``BertModel`` names, safetensors) with a small WordPiece vocabulary, saved as a
sentence-transformers directory (Transformer, mean Pooling, Normalize) that transformers,
sentence-transformers, model2vec and wordvec all read.  Built with NumPy and tokenizers
only, so the tests that do not compare against torch need no torch."""

import json
from pathlib import Path

import numpy as np
from safetensors.numpy import save_file
from tokenizers import Tokenizer, decoders, normalizers, pre_tokenizers, processors
from tokenizers.models import WordPiece

SPECIAL = ["[PAD]", "[unused0]", "[unused1]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
WORDS = ("the a an of to and in is was it that for on with as by at be this are from or not "
         "good bad great movie film story plot actor music fun dull boring love hate best worst "
         "very really quite long short funny sad happy dark light day night time year man woman "
         "city world house water fire river road car game book song play run walk talk see said "
         "new old big small high low first last many few more most other some such no only own "
         "same so than too can will just should now").split()
PIECES = ["##s", "##ed", "##ing", "##ly", "##er", "##est", "##y", "##n", "##t", "##e"]
LETTERS = list("abcdefghijklmnopqrstuvwxyz0123456789.,!?'-")


def vocabulary():
    letters = LETTERS + ["##" + c for c in "abcdefghijklmnopqrstuvwxyz"]
    return list(dict.fromkeys(SPECIAL + letters + WORDS + PIECES))


def make_tokenizer(vocab):
    ids = {token: i for i, token in enumerate(vocab)}
    tokenizer = Tokenizer(WordPiece(ids, unk_token="[UNK]", continuing_subword_prefix="##"))
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=True)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", ids["[CLS]"]), ("[SEP]", ids["[SEP]"])])
    tokenizer.decoder = decoders.WordPiece(prefix="##")
    tokenizer.add_special_tokens(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"])
    return tokenizer


def bert_weights(rng, vocab_size, hidden=32, layers=2, intermediate=64, positions=64):
    def normal(*shape):
        return (0.2 * rng.standard_normal(shape)).astype(np.float32)

    def near_one(n):
        return (1.0 + 0.1 * rng.standard_normal(n)).astype(np.float32)

    tensors = {
        "embeddings.word_embeddings.weight": normal(vocab_size, hidden),
        "embeddings.position_embeddings.weight": normal(positions, hidden),
        "embeddings.token_type_embeddings.weight": normal(2, hidden),
        "embeddings.LayerNorm.weight": near_one(hidden),
        "embeddings.LayerNorm.bias": normal(hidden),
        "pooler.dense.weight": normal(hidden, hidden),
        "pooler.dense.bias": normal(hidden),
    }
    for n in range(layers):
        p = f"encoder.layer.{n}."
        for name in ("query", "key", "value"):
            tensors[p + f"attention.self.{name}.weight"] = normal(hidden, hidden)
            tensors[p + f"attention.self.{name}.bias"] = normal(hidden)
        tensors[p + "attention.output.dense.weight"] = normal(hidden, hidden)
        tensors[p + "attention.output.dense.bias"] = normal(hidden)
        tensors[p + "attention.output.LayerNorm.weight"] = near_one(hidden)
        tensors[p + "attention.output.LayerNorm.bias"] = normal(hidden)
        tensors[p + "intermediate.dense.weight"] = normal(intermediate, hidden)
        tensors[p + "intermediate.dense.bias"] = normal(intermediate)
        tensors[p + "output.dense.weight"] = normal(hidden, intermediate)
        tensors[p + "output.dense.bias"] = normal(hidden)
        tensors[p + "output.LayerNorm.weight"] = near_one(hidden)
        tensors[p + "output.LayerNorm.bias"] = normal(hidden)
    return tensors


def make_teacher(directory, seed=0, hidden=32, layers=2, heads=4, intermediate=64, positions=64):
    """Write the teacher's files into ``directory`` (created) and return its Path."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    vocab = vocabulary()
    make_tokenizer(vocab).save(str(directory / "tokenizer.json"))
    rng = np.random.default_rng(seed)
    save_file(bert_weights(rng, len(vocab), hidden, layers, intermediate, positions),
              str(directory / "model.safetensors"))
    config = {"architectures": ["BertModel"], "model_type": "bert", "hidden_size": hidden,
              "num_hidden_layers": layers, "num_attention_heads": heads, "intermediate_size": intermediate,
              "hidden_act": "gelu", "max_position_embeddings": positions, "type_vocab_size": 2,
              "vocab_size": len(vocab), "layer_norm_eps": 1e-12, "pad_token_id": 0,
              "hidden_dropout_prob": 0.0, "attention_probs_dropout_prob": 0.0,
              "position_embedding_type": "absolute"}
    _write_json(directory / "config.json", config)
    _write_json(directory / "tokenizer_config.json",
                {"do_lower_case": True, "unk_token": "[UNK]", "sep_token": "[SEP]", "pad_token": "[PAD]",
                 "cls_token": "[CLS]", "mask_token": "[MASK]", "tokenizer_class": "BertTokenizer",
                 "model_max_length": positions})
    _write_json(directory / "modules.json", [
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
        {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"}])
    _write_json(directory / "sentence_bert_config.json", {"max_seq_length": positions - 2, "do_lower_case": False})
    (directory / "1_Pooling").mkdir(exist_ok=True)
    _write_json(directory / "1_Pooling" / "config.json",
                {"word_embedding_dimension": hidden, "pooling_mode_cls_token": False,
                 "pooling_mode_mean_tokens": True, "pooling_mode_max_tokens": False,
                 "pooling_mode_mean_sqrt_len_tokens": False})
    (directory / "2_Normalize").mkdir(exist_ok=True)
    return directory


def _write_json(path, value):
    Path(path).write_text(json.dumps(value, indent=2))


SENTENCES = [
    "the movie was very good",
    "a boring film with a dull plot",
    "the best song of the year",
    "walking by the river at night",
    "she said the story was funny and sad",
    "an old man and a small car",
    "zebras quickly jumped",
    "",
    "the the the",
    "great great music, really fun!",
]
