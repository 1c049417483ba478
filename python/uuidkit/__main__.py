"""``python -m uuidkit``: the standard module's ``python -m uuid`` (see ``uuidkit._cli``)."""

import sys

from uuidkit._cli import main

if __name__ == "__main__":
    sys.exit(main())
