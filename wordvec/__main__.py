import sys

from wordvec.cli import main

sys.exit(main())
