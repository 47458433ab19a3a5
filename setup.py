"""The one compiled extension, beside pyproject.toml (which holds everything else).

``wordvec.io._text_rows`` parses word2vec/GloVe text in C so that loading a text file
does not import Numba (wordvec/io/text_rows.c says why).  It is optional: where no C
compiler is found the install goes on, and text files are parsed by the Numba kernel instead
(``wordvec.vectors.reading.text_row_parser``), the same rows and floats.
"""

import sys

from setuptools import Extension, setup

# no fused multiply-add: the floats must be those of the Numba twin, bit for bit
FLAGS = [] if sys.platform == "win32" else ["-O2", "-ffp-contract=off"]

setup(ext_modules=[Extension("wordvec.io._text_rows", ["wordvec/io/text_rows.c"],
                             extra_compile_args=FLAGS, optional=True)])
