"""Doc2Vec with several training threads, with and without the hot words' replica rows:
gensim's test_parallel setting (the Lee corpus repeated to 6000 documents, ~1.2M words,
PV-DM with gensim's defaults), the mean norm of the document rows and the rank of four
documents' inferred vectors among the trained rows (0: the document itself is nearest).
A run whose rows grow without bound shows it in the norm long before any NaN.

    flock /tmp/wordvec-bench.lock .venv/bin/python benchmarks/bench_doc2vec_workers.py \\
        --workers 1,2,3,4,6 --record doc2vec-workers-replicas
"""

import argparse
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lib.records import Record, measure  # noqa: E402

from wordvec.models.doc2vec import model as doc2vec  # noqa: E402

PROBES = (0, 8, 29, 100)


def lee_documents():
    warnings.simplefilter("ignore")
    from gensim import utils
    from gensim.test.test_doc2vec import DocsLeeCorpus
    return list(DocsLeeCorpus()), list(utils.RepeatCorpus(DocsLeeCorpus(), 6000))


def run(corpus, base, workers, replicas):
    saved = doc2vec.REPLICA_WORKERS
    doc2vec.REPLICA_WORKERS = workers if replicas else 1
    try:
        model, fields = measure(lambda: doc2vec.Doc2Vec(corpus, workers=workers, dm=1))
        used = model._hot_words() > 0
    finally:
        doc2vec.REPLICA_WORKERS = saved
    ranks = []
    for d in PROBES:
        order = [tag for tag, _ in model.dv.most_similar([model.infer_vector(base[d].words)], topn=len(model.dv))]
        ranks.append(order.index(d))
    norm = float(np.linalg.norm(model.dv.vectors, axis=1).mean())
    return fields, {"mean_document_norm": norm, "inferred_ranks": ranks}, used


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", default="1,2,3,4,6")
    parser.add_argument("--record", default="doc2vec-workers-replicas")
    args = parser.parse_args()
    base, corpus = lee_documents()
    record = Record(args.record, note="gensim test_parallel's corpus and settings; one seed; PV-DM mean, "
                                      "negative 5, 10 epochs; shared 2-core machine")
    for workers in (int(w) for w in args.workers.split(",")):
        for replicas in ((False, True) if workers > 1 else (False,)):
            fields, quality, used = run(corpus, base, workers, replicas)
            record.add_run(system="wordvec", config=f"pv-dm-{workers}w-{'replicas' if replicas else 'shared'}",
                           workers=workers, replicas=used, quality=quality, **fields)
            print(workers, "replicas" if used else "shared", quality, f"{fields['wall_seconds']:.1f} s", flush=True)
    print(record.save())


if __name__ == "__main__":
    main()
