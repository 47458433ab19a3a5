"""`wordvec serve VECTORS [--port 8000] [--host 127.0.0.1]`: explore vectors in the browser;
`wordvec serve STATIC_MODEL [--sentences FILE]`: a static sentence model's tokens and the
nearest sentences of a file."""

import argparse

from wordvec.cli import gate
from wordvec.cli.common import nonnegative_int
from wordvec.errors import WordvecError
from wordvec.models.lm.training import blas_threads
from wordvec.models.saved import load_document_vectors, load_keyed_vectors
from wordvec.models.static.files import is_static_model
from wordvec.models.static.model import StaticModel
from wordvec.serve import make_server, make_static_server


def port_number(text):
    value = nonnegative_int(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"must be a port number from 0 to 65535, not {text}")
    return value


def register(subparsers):
    parser = subparsers.add_parser(
        "serve",
        description="Serve a local web page (no network needed) over a model's or a file's word vectors:\n"
                    "nearest neighbours as you type, analogies (3CosAdd, 3CosMul), word-pair similarity\n"
                    "and a pan/zoom map of the top words, with a JSON API under /api/ (see README).\n"
                    "A static sentence model (wordvec static) shows its tokens the same way, and the\n"
                    "lines of --sentences FILE nearest to a typed sentence.\n"
                    "Listens on 127.0.0.1 (this machine only) unless --host says otherwise.",
        epilog="examples:\n  wordvec serve vectors.bin            # then open http://127.0.0.1:8000/\n"
               "  wordvec serve model.wv --port 8080\n"
               "  wordvec serve reviews.d2v --docs       # a Doc2Vec model's documents, by tag\n"
               "  wordvec serve static-model --sentences reviews.txt   # a static sentence model\n"
               "  curl 'http://127.0.0.1:8000/api/neighbours?word=king&topn=5'\n",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("vectors", metavar="VECTORS",
                        help="vector file, wordvec model directory or static sentence model directory")
    parser.add_argument("--glove", action="store_true", help="read VECTORS as headerless GloVe text")
    parser.add_argument("--docs", action="store_true",
                        help="VECTORS is a Doc2Vec model (`wordvec doc2vec train`): explore its documents "
                             "(keys: their tags) instead of its words")
    parser.add_argument("--sentences", metavar="FILE",
                        help="a static model: rank the lines of FILE by cosine to a typed sentence")
    parser.add_argument("--port", type=port_number, default=8000, metavar="N",
                        help="port to listen on (default 8000; 0 picks a free one)")
    parser.add_argument("--host", default="127.0.0.1", metavar="ADDRESS",
                        help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: everyone)")
    parser.set_defaults(run=run)
    gate.mark(parser, inputs=["vectors", gate.Input("sentences", text=True)])


def run(args):
    if is_static_model(args.vectors):
        server, what = _static_server(args)
    elif args.sentences:
        raise WordvecError("--sentences is for a static sentence model directory (wordvec static); "
                           f"{args.vectors} is not one")
    else:
        kv = load_document_vectors(args.vectors) if args.docs else load_keyed_vectors(args.vectors, glove=args.glove)
        server = make_server(kv, args.host, args.port, source=args.vectors)
        what = f"{len(kv):,} {'documents' if args.docs else 'words'} x {kv.vector_size} dimensions"
    host, port = server.server_address[:2]
    shown = f"[{host}]" if ":" in host else host
    print(f"serving {what} from {args.vectors} at http://{shown}:{port}/  (Ctrl-C stops)", flush=True)
    # One BLAS thread per query: requests already run in parallel threads; with BLAS threads on
    # top, 4 clients got 37 instead of 107 answers/s on 2 cores (benchmarks/README, "Explorer latency").
    with blas_threads(1):
        try:
            server.serve_forever()
        finally:
            server.server_close()
    return 0


def _static_server(args):
    for flag, given in (("--docs", args.docs), ("--glove", args.glove)):
        if given:
            raise WordvecError(f"{flag} does not apply to {args.vectors}: it is a static sentence model")
    model = StaticModel.load(args.vectors)
    server = make_static_server(model, args.host, args.port, source=args.vectors, sentences=args.sentences)
    lines = f" and {len(server.api.index):,} sentences of {args.sentences}" if args.sentences else ""
    return server, f"{len(model):,} tokens x {model.dim} dimensions (static model){lines}"
