"""What the benchmark scripts share: ``records`` (a run's JSON record and where it is filed),
``peers`` (running and measuring the peers' processes), ``trees`` (a child program run
against another source tree, for A/B), ``report`` (word2vec's comparison tables), and the
jobs run inside the peers' environment (``gensim_tasks``, ``subword_peers``)."""
