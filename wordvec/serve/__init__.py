"""``wordvec serve``: explore word vectors in the browser, offline.

    from wordvec.serve import make_server
    server = make_server(kv, host="127.0.0.1", port=8000)   # port 0: any free port
    server.serve_forever()

The page (``static/index.html`` + ``explorer.js`` + ``explorer.css``, hand-written, no
framework, nothing fetched from the network) shows nearest neighbours as you type, an
analogy form (3CosAdd and 3CosMul), word-pair similarity and a pan/zoom map of the top
words; it talks to the JSON API of :mod:`wordvec.serve.api` through
:mod:`wordvec.serve.server`.  A static sentence model (``make_static_server``) is explored
through its tokens, with nearest sentences of a file (:mod:`wordvec.serve.static_model`).
"""

import ipaddress
import logging

from wordvec.errors import WordvecError
from wordvec.serve.api import ExplorerAPI
from wordvec.serve.server import ExplorerServer
from wordvec.serve.static_model import StaticExplorerAPI
from wordvec.vectors import ann

log = logging.getLogger(__name__)


def make_server(kv, host="127.0.0.1", port=8000, source=""):
    """An :class:`~wordvec.serve.server.ExplorerServer` for ``kv``, bound but not yet serving."""
    if len(kv) == 0:
        raise WordvecError("there are no word vectors to explore (the vocabulary is empty)")
    if source and ann.index_path(source).is_file():  # built by `wordvec index`; used for big vocabularies
        try:
            ann.attach_index(kv, source)
        except WordvecError as error:  # exact search still answers every query
            log.warning("not using the approximate index: %s", error)
    return _listen(ExplorerAPI(kv, source), host, port)


def make_static_server(model, host="127.0.0.1", port=8000, source="", sentences=None):
    """An :class:`~wordvec.serve.server.ExplorerServer` for the ``StaticModel`` ``model``
    (``sentences``: a text file whose lines ``/api/sentence`` ranks), bound but not yet serving."""
    return _listen(StaticExplorerAPI(model, source, sentences), host, port)


def _listen(api, host, port):
    try:
        server = ExplorerServer((host, port), api)
    except OSError as error:
        raise WordvecError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    if not _is_loopback(host):
        log.warning("listening on %s: anyone who can reach this machine can query the vectors", host)
    return server


def _is_loopback(host):
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
